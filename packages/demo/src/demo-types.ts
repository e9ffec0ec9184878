/**
 * Shapes of the generated demo database: table definitions (pure data, rendered to DDL) and rows.
 * Values are plain JSON-like values; dates and timestamps are ISO-like strings so rendering is byte-stable.
 */

/** A value of one cell: text, number, boolean, SQL NULL. Dates are `YYYY-MM-DD`, timestamps `YYYY-MM-DD HH:MM:SS+00`. */
export type DemoValue = string | number | boolean | null;

/** One row, keyed by column name. */
export type DemoRow = Readonly<Record<string, DemoValue>>;

/** A column of a demo table. */
export interface DemoColumn {
  readonly name: string;
  /** PostgreSQL type as written in DDL, e.g. `numeric(12,2)`, `timestamptz`. */
  readonly type: string;
  /** Whether NULL is allowed. Columns are NOT NULL unless marked nullable. */
  readonly nullable: boolean;
  /** `COMMENT ON COLUMN` text. */
  readonly comment: string;
  /** Column-level UNIQUE constraint. */
  readonly unique?: boolean;
  /** Column-level CHECK expression (without `CHECK`). */
  readonly check?: string;
}

/** A foreign key from `columns` of the owning table to `referencedColumns` of `referencedTable`. */
export interface DemoForeignKey {
  readonly columns: readonly string[];
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
}

/** The definition of one demo table (no rows). */
export interface DemoTableDefinition {
  readonly name: string;
  /** `COMMENT ON TABLE` text. */
  readonly comment: string;
  readonly columns: readonly DemoColumn[];
  readonly primaryKey: readonly string[];
  readonly foreignKeys: readonly DemoForeignKey[];
  /** Table-level CHECK expressions (without `CHECK`). */
  readonly checks: readonly string[];
}

/** A demo table with its generated rows. */
export interface DemoTable {
  readonly definition: DemoTableDefinition;
  readonly rows: readonly DemoRow[];
}

/** The whole generated demo database, tables in creation order (referenced tables first). */
export interface DemoDataset {
  /** The seed the rows were generated from. */
  readonly seed: number;
  /** Fixed "today" of the data set (`YYYY-MM-DD`): the newest order is from the day before. */
  readonly anchorDate: string;
  readonly tables: readonly DemoTable[];
}
