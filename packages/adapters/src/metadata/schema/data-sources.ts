import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * A database nlq answers questions about. Identified by a fingerprint of its connection
 * (host, port, database, user — never the password), so the same database maps to one row.
 */
export const dataSources = pgTable("data_sources", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Human-readable name, e.g. the database name or one given by the user. */
  name: text("name").notNull(),
  /** `connectionFingerprint(url)`: host, port, database and user, without the password. */
  connectionFingerprint: text("connection_fingerprint").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DataSourceRow = typeof dataSources.$inferSelect;
