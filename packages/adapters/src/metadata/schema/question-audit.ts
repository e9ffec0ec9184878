import { bigserial, boolean, index, integer, jsonb, pgTable, real, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One interpretation offered with an answer, as audited: its SQL, how many candidates supported it and how it differs
 * from the chosen reading, with the number of rows it returned — never the rows themselves.
 */
export interface AuditedInterpretation {
  readonly sql: string;
  readonly support?: number;
  readonly difference?: string;
  readonly rows?: number;
  /** True for the reading the answer is (#1). */
  readonly chosen?: boolean;
}

/**
 * The audit trail: who asked which question from where, and what ran (issue 19 item 5,
 * docs/decisions/2026-11-27-audit-trail.md). One row per answered (or failed) question on every surface, written by
 * `QuestionAuditTrail.record` after the answer went out. It holds only what the asking role saw anyway — its own
 * question, the SQL, the error it was told, row counts — never a row of data. `nlq log` shows a role its own rows
 * (an administrator: every role's) of one data source.
 */
export const questionAudit = pgTable(
  "question_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** When the question arrived. */
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    /** `host:port/database` of the target database (no user, no secret). */
    dataSource: text("data_source").notNull(),
    /** The PostgreSQL role that asked (the login role the surface authenticated). */
    role: text("role").notNull(),
    /** Where the question came from: `proxy`, `web`, `mcp`, `cli`. */
    surface: text("surface").notNull(),
    /** The client's address where the surface knows it (proxy: the socket's peer; web: as forwarded). */
    clientAddress: text("client_address"),
    /** The client's `application_name` (proxy), user agent (web), MCP client name, or `nlq ask`. */
    applicationName: text("application_name"),
    question: text("question").notNull(),
    /** The SQL that ran; null when no SQL ran. */
    sql: text("sql"),
    ok: boolean("ok").notNull(),
    /** SQLSTATE and message the asker was given when the question failed. */
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    confidence: real("confidence"),
    /** How the confidence was computed, or why there is none (`Answer.selection.basis`). */
    confidenceBasis: text("confidence_basis"),
    /** Rows the answer returned (a count; rows are never stored). */
    rows: integer("rows"),
    /** True when a row or byte cap cut the result. */
    truncated: boolean("truncated"),
    /** The interpretations offered when candidates disagreed (rows as counts); null when none were offered. */
    interpretations: jsonb("interpretations").$type<readonly AuditedInterpretation[]>(),
    /** `provider:model` that wrote the SQL. */
    model: text("model"),
    elapsedMilliseconds: integer("elapsed_ms"),
  },
  (table) => [
    index("question_audit_role_idx").on(table.dataSource, table.role, table.askedAt),
    index("question_audit_asked_at_idx").on(table.dataSource, table.askedAt),
  ],
);

export type QuestionAuditRow = typeof questionAudit.$inferSelect;
export type NewQuestionAuditRow = typeof questionAudit.$inferInsert;
