import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { dataSources } from "./data-sources";

/** A column of a generation, in the order its values were numbered. */
export interface GenerationColumn {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  /** The first value number of the column; its values run up to the next column's first. */
  readonly firstValue: number;
}

/**
 * One built state of a value index, served from the metadata store (docs/decisions/2026-12-02-value-index-in-the-store.md):
 * `building` while its values and buckets are written, then `published` (at most one per index key) in the
 * transaction that marks the one it replaces `retired` (deleted right after). Readers only ever read a published generation, so they never see
 * a half-built one. `index_key` names the index: `data-source:<id>` for what `nlq index` built, `background:<url
 * without password>` for a database and role nothing was indexed for.
 */
export const valueIndexGenerations = pgTable(
  "value_index_generations",
  {
    id: serial("id").primaryKey(),
    indexKey: text("index_key").notNull(),
    /** The data source of an `nlq index` generation (deleted with it); null for a background one. */
    dataSourceId: uuid("data_source_id").references(() => dataSources.id, { onDelete: "cascade" }),
    /** `lshParametersKey` of the band keys. */
    parametersKey: text("parameters_key").notNull(),
    status: text("status", { enum: ["building", "published", "retired"] }).notNull(),
    /** What it was built from: for `nlq index`'s, the stored columns' state (`valueIndexSourceStamp`). */
    sourceStamp: text("source_stamp").notNull().default(""),
    columns: jsonb("columns").$type<GenerationColumn[]>().notNull().default([]),
    /** `columnKey`s the generation does not hold whole (truncated, or left out of a background build): looked up live. */
    incompleteColumns: jsonb("incomplete_columns").$type<string[]>().notNull().default([]),
    valueCount: integer("value_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("value_index_generations_published_idx").on(table.indexKey).where(sql`${table.status} = 'published'`),
  ],
);

/** The values of a generation, numbered column after column (`GenerationColumn.firstValue`). */
export const valueIndexValues = pgTable(
  "value_index_values",
  {
    generationId: integer("generation_id")
      .notNull()
      .references(() => valueIndexGenerations.id, { onDelete: "cascade" }),
    valueNumber: integer("value_number").notNull(),
    value: text("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.generationId, table.valueNumber] })],
);

/**
 * The LSH buckets of a generation: for each band and band key (uint32 as int4), the numbers of the values hashed
 * there. The publisher groups them in batches of values (`valuesPerBucketBatch`, 1,000,000 by default), so a bucket
 * whose values fall into several batches has one row per batch, told apart by its first value number. A lookup reads
 * the rows of each keyword's band keys through the primary key's b-tree (one range per key).
 */
export const valueIndexBuckets = pgTable(
  "value_index_buckets",
  {
    generationId: integer("generation_id")
      .notNull()
      .references(() => valueIndexGenerations.id, { onDelete: "cascade" }),
    band: smallint("band").notNull(),
    bucketKey: integer("bucket_key").notNull(),
    /** The lowest of `value_numbers`: which batch's row of the bucket this is. */
    firstValueNumber: integer("first_value_number").notNull(),
    /** Ascending. */
    valueNumbers: integer("value_numbers").array().notNull(),
  },
  (table) => [
    primaryKey({
      name: "value_index_buckets_pk",
      columns: [table.generationId, table.band, table.bucketKey, table.firstValueNumber],
    }),
  ],
);

/**
 * Who builds an index now: one row per index key, held by `holder` until `expires_at`, which the holder's heartbeat
 * moves on. Another process takes the lease over only once it expired (its holder died or hung).
 */
export const valueIndexLeases = pgTable(
  "value_index_leases",
  {
    indexKey: text("index_key").primaryKey(),
    holder: text("holder").notNull(),
    acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("value_index_leases_expires_idx").on(table.expiresAt)],
);

export type ValueIndexGenerationRow = typeof valueIndexGenerations.$inferSelect;
