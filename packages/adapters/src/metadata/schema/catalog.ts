import {
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { dataSources } from "./data-sources";

/** A foreign key as stored in `catalog_tables.foreign_keys` (same shape as the catalog's `ForeignKey`). */
export interface StoredForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedSchema: string;
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
}

/**
 * One indexed table (or view) of a data source, written by `nlq index`. `fingerprint` (columns, types, comments,
 * keys, rounded row estimate, merged descriptions) decides whether a re-run must re-index it; it is written last, in
 * the table's own transaction, so an interrupted run loses nothing already committed.
 */
export const catalogTables = pgTable(
  "catalog_tables",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dataSourceId: uuid("data_source_id")
      .notNull()
      .references(() => dataSources.id, { onDelete: "cascade" }),
    schemaName: text("schema_name").notNull(),
    tableName: text("table_name").notNull(),
    /** `TableKind`: table, view, materialized-view, foreign-table, partitioned-table. */
    kind: text("kind").notNull(),
    /** Description shown to models: `COMMENT ON TABLE`, else a catalog file's. */
    description: text("description"),
    primaryKey: jsonb("primary_key").$type<string[]>().notNull(),
    foreignKeys: jsonb("foreign_keys").$type<StoredForeignKey[]>().notNull(),
    /** `pg_class.reltuples`, or an exact `count(*)` for small tables; null when never analyzed. */
    rowCount: doublePrecision("row_count"),
    rowCountExact: boolean("row_count_exact").notNull().default(false),
    fingerprint: text("fingerprint").notNull(),
    /**
     * `provider:modelId` of the embedding model that made this table's description vectors (`embeddingModelIdentity`),
     * null when none were made (`nlq index --no-embeddings`, or an index written before it was recorded). A run with
     * another embedder re-embeds the table whatever its fingerprint says, and questions search the stored vectors only
     * while every table's embedder is the question's.
     */
    embeddingModel: text("embedding_model"),
    indexedAt: timestamp("indexed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("catalog_tables_name_idx").on(table.dataSourceId, table.schemaName, table.tableName)],
);

/** One column of an indexed table, with its description, sample values and `pg_stats` statistics. */
export const catalogColumns = pgTable(
  "catalog_columns",
  {
    tableId: uuid("table_id")
      .notNull()
      .references(() => catalogTables.id, { onDelete: "cascade" }),
    /** Position in the table (0-based, table order). */
    position: integer("position").notNull(),
    columnName: text("column_name").notNull(),
    dataType: text("data_type").notNull(),
    nullable: boolean("nullable").notNull(),
    /** `COMMENT ON COLUMN`, else a catalog file's description. */
    description: text("description"),
    enumValues: jsonb("enum_values").$type<string[]>(),
    sampleValues: jsonb("sample_values").$type<string[]>(),
    /** `pg_stats.n_distinct` resolved to a count (negative fractions × rows); null when not analyzed. */
    distinctCount: doublePrecision("distinct_count"),
    /** `pg_stats.null_frac`; null when not analyzed. */
    nullFraction: doublePrecision("null_fraction"),
  },
  (table) => [primaryKey({ columns: [table.tableId, table.position] })],
);

export type CatalogTableRow = typeof catalogTables.$inferSelect;
export type CatalogColumnRow = typeof catalogColumns.$inferSelect;
