import { boolean, index, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { webTurns } from "./web-threads";

/**
 * Question–SQL pairs a user accepted (thumbs up) or corrected, per data source (`host:port/database`): retrieved by
 * similarity and shown to the generators as few-shot demonstrations for later questions. Each pair belongs to the
 * role that verified it; only an administrator's pairs are shared with every role, and even then a pair reaches a
 * role only when that role may read what its SQL uses (`readableExamples` in @nlq/engine, see
 * docs/decisions/2026-11-27-scoped-verified-examples.md).
 */
export const verifiedExamples = pgTable(
  "verified_examples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dataSource: text("data_source").notNull(),
    question: text("question").notNull(),
    sql: text("sql").notNull(),
    /**
     * How it was verified: `accepted` (thumbs up), `corrected` (edited SQL), `admin` (edited by an administrator),
     * `picked` (a reading the user confirmed: "use this from now on").
     */
    source: text("source").notNull(),
    /** For `picked` pairs: "picked from 3 readings by alice". Null otherwise. */
    provenance: text("provenance"),
    /** The role that verified it (its owner); never shown to other roles. */
    verifiedBy: text("verified_by").notNull(),
    /** True when an administrator verified it for every role; false: for `verifiedBy` only. */
    sharedWithAllRoles: boolean("shared_with_all_roles").notNull().default(false),
    /** The web turn whose thumbs-up saved it (a thumbs-down on that turn retracts it); null otherwise. */
    turnId: uuid("turn_id").references(() => webTurns.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("verified_examples_owner_question_key").on(table.dataSource, table.verifiedBy, table.question),
    index("verified_examples_data_source_idx").on(table.dataSource, table.updatedAt),
    index("verified_examples_turn_idx").on(table.turnId),
  ],
);

export type VerifiedExampleRow = typeof verifiedExamples.$inferSelect;
