import { customType, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** `bytea` as a `Uint8Array` (PGlite returns Uint8Array, node-postgres a Buffer, which is one). */
const vectorBytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * A collection of the embedded vector store (one per data source) and the vector length of its points.
 * Used only when no Qdrant is configured; see docs/decisions/2026-11-21-embedded-vector-store.md.
 */
export const embeddingCollections = pgTable("embedding_collections", {
  name: text("name").primaryKey(),
  dimensions: integer("dimensions").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One point of the embedded vector store: the unit-length vector as little-endian float32 bytes
 * (plain bytea, so any PostgreSQL works without the pgvector extension) and its JSON payload
 * (`kind`, `table`, ...). Search runs in process; this table only persists the points.
 */
export const embeddings = pgTable(
  "embeddings",
  {
    collection: text("collection")
      .notNull()
      .references(() => embeddingCollections.name, { onDelete: "cascade" }),
    pointId: text("point_id").notNull(),
    vector: vectorBytes("vector").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.collection, table.pointId] })],
);
