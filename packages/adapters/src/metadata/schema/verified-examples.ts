import { index, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/**
 * Question–SQL pairs a user accepted (thumbs up) or corrected, per data source (`host:port/database`): retrieved by
 * similarity and shown to the generators as few-shot demonstrations for later questions.
 */
export const verifiedExamples = pgTable(
  "verified_examples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dataSource: text("data_source").notNull(),
    question: text("question").notNull(),
    sql: text("sql").notNull(),
    /** How it was verified: `accepted` (thumbs up), `corrected` (edited SQL), `admin`. */
    source: text("source").notNull(),
    /** The role that verified it. */
    verifiedBy: text("verified_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("verified_examples_question_key").on(table.dataSource, table.question),
    index("verified_examples_data_source_idx").on(table.dataSource, table.updatedAt),
  ],
);

export type VerifiedExampleRow = typeof verifiedExamples.$inferSelect;
