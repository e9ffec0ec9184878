/**
 * What the asking role can read of a database: plain, serializable data (retrieval and the metadata store reuse it).
 */
export interface Catalog {
  readonly tables: readonly TableInfo[];
}

export type TableKind = "table" | "view" | "materialized-view" | "foreign-table" | "partitioned-table";

export interface TableInfo {
  readonly schema: string;
  readonly name: string;
  readonly kind: TableKind;
  /** `COMMENT ON TABLE`, or null. */
  readonly comment: string | null;
  /** Readable columns in table order. */
  readonly columns: readonly ColumnInfo[];
  /** Primary-key column names in key order; empty when there is none (or a key column is not readable). */
  readonly primaryKey: readonly string[];
  /** Foreign keys whose columns and referenced table and columns are all readable. */
  readonly foreignKeys: readonly ForeignKey[];
}

export interface ColumnInfo {
  readonly name: string;
  /** Type as PostgreSQL formats it (`format_type`), e.g. `character varying(80)`, `numeric(10,2)`. */
  readonly dataType: string;
  readonly nullable: boolean;
  /** `COMMENT ON COLUMN`, or null. */
  readonly comment: string | null;
  /** Labels of an enum-typed column in their declared order; absent for other types. */
  readonly enumValues?: readonly string[];
  /** A few distinct example values (text columns), filled by `fetchSampleValues`; absent otherwise. */
  readonly sampleValues?: readonly string[];
}

export interface ForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedSchema: string;
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
}

/** `schema.table` as one key (unquoted). */
export function tableKey(table: { readonly schema: string; readonly name: string }): string {
  return `${table.schema}.${table.name}`;
}

export function countColumns(catalog: Catalog): number {
  return catalog.tables.reduce((total, table) => total + table.columns.length, 0);
}
