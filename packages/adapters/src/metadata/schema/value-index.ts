import {
  boolean,
  customType,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { dataSources } from "./data-sources";

/** `bytea` as a `Uint8Array` (PGlite returns Uint8Array, node-postgres a Buffer, which is one). */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * One column considered by the value index of a data source: kept (with its value count) or skipped
 * (with the reason). The unit of incremental rebuilds: replacing a column replaces its row and chunks.
 */
export const valueIndexColumns = pgTable(
  "value_index_columns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dataSourceId: uuid("data_source_id")
      .notNull()
      .references(() => dataSources.id, { onDelete: "cascade" }),
    schemaName: text("schema_name").notNull(),
    tableName: text("table_name").notNull(),
    columnName: text("column_name").notNull(),
    /** `lshParametersKey` the band keys were computed with; other parameters mean "rebuild". */
    parametersKey: text("parameters_key").notNull(),
    valueCount: integer("value_count").notNull(),
    /** More distinct values existed than the per-column cap. */
    truncated: boolean("truncated").notNull().default(false),
    /** Why the column is not indexed; null when it is. */
    skipReason: text("skip_reason"),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("value_index_columns_column_idx").on(
      table.dataSourceId,
      table.schemaName,
      table.tableName,
      table.columnName,
    ),
  ],
);

/**
 * The values of an indexed column in chunks (up to 4,096 values each), with their band keys, so an index
 * loads without re-hashing: `values` is UTF-8 with a NUL byte after each value (PostgreSQL text never
 * contains NUL); `band_keys` is little-endian uint32, `bands` keys per value.
 */
export const valueIndexChunks = pgTable(
  "value_index_chunks",
  {
    columnId: uuid("column_id")
      .notNull()
      .references(() => valueIndexColumns.id, { onDelete: "cascade" }),
    chunkNumber: integer("chunk_number").notNull(),
    valueCount: integer("value_count").notNull(),
    values: bytes("values").notNull(),
    bandKeys: bytes("band_keys").notNull(),
  },
  (table) => [primaryKey({ columns: [table.columnId, table.chunkNumber] })],
);

export type ValueIndexColumnRow = typeof valueIndexColumns.$inferSelect;
export type ValueIndexChunkRow = typeof valueIndexChunks.$inferSelect;
