import type { CandidateRecord, LlmCallRecord } from "@nlq/engine";
import { bigserial, boolean, index, integer, jsonb, pgTable, real, text, timestamp } from "drizzle-orm/pg-core";

/** The trace of every question asked through any entry point (proxy, web, CLI). */
export const queryLog = pgTable(
  "query_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    question: text("question").notNull(),
    /** The chosen SQL; null when no candidate survived. */
    sql: text("sql"),
    ok: boolean("ok").notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    confidence: real("confidence"),
    rows: integer("rows"),
    /** `provider:model` that generated the SQL. */
    model: text("model"),
    /** True when the answer came from a scripted replay, not a language model. */
    scripted: boolean("scripted").notNull().default(false),
    candidates: jsonb("candidates").$type<readonly CandidateRecord[]>().notNull().default([]),
    calls: jsonb("calls").$type<readonly LlmCallRecord[]>().notNull().default([]),
    elapsedMilliseconds: integer("elapsed_ms").notNull(),
    /** Entry point: `proxy`, `web`, `cli`. */
    origin: text("origin").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("query_log_created_at_idx").on(table.createdAt)],
);

export type QueryLogRow = typeof queryLog.$inferSelect;
