import { type Answer, NlqError } from "@nlq/engine";
import type { AuditedInterpretation, NewQuestionAuditRow } from "../metadata/schema/question-audit";

/** The surfaces a question can come from. */
export const auditSurfaces = ["proxy", "web", "mcp", "cli"] as const;
export type AuditSurface = (typeof auditSurfaces)[number];

/** Who asked and from where, as the surface knows it. */
export interface QuestionAsker {
  readonly surface: AuditSurface;
  /** The PostgreSQL role the question ran as (the login role the surface authenticated). */
  readonly role: string;
  /** `host:port/database` of the target database (`dataSourceKey`). */
  readonly dataSource: string;
  /** The client's address, where known. */
  readonly clientAddress?: string;
  /** The client's application name (proxy: `application_name`; web: user agent; MCP: client name), where known. */
  readonly applicationName?: string;
}

/** What became of a question: its answer, or the error the asker was told. */
export type AuditedOutcome = { readonly answer: Answer } | { readonly error: unknown };

/** Longest text kept in a free-text column (a hostile client may send anything). */
const maximumTextLength = 20_000;
/** Longest address or application name kept. */
const maximumLabelLength = 200;
/** Most interpretations kept per question. */
const maximumInterpretations = 10;

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function label(text: string | undefined): string | null {
  if (text === undefined) return null;
  // Control and bidirectional formatting characters (a terminal escape in an application_name) are dropped: `nlq log` prints these as text.
  const clean = text.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, "").trim();
  return clean === "" ? null : clip(clean, maximumLabelLength);
}

/**
 * The interpretations offered with an answer (`Answer.interpretations`, when the engine offers some), as the audit
 * keeps them: SQL, support and difference, and each one's rows as a count. Anything else is ignored.
 */
export function auditedInterpretations(answer: Answer): AuditedInterpretation[] | null {
  const offered = (answer as { readonly interpretations?: unknown }).interpretations;
  if (!Array.isArray(offered) || offered.length === 0) return null;
  const kept: AuditedInterpretation[] = [];
  for (const item of offered.slice(0, maximumInterpretations)) {
    if (typeof item !== "object" || item === null) continue;
    const { sql, support, difference, rows } = item as Record<string, unknown>;
    if (typeof sql !== "string") continue;
    kept.push({
      sql: clip(sql, maximumTextLength),
      ...(typeof support === "number" && Number.isFinite(support) ? { support } : {}),
      ...(typeof difference === "string" ? { difference: clip(difference, 1_000) } : {}),
      ...(Array.isArray(rows) ? { rows: rows.length } : typeof rows === "number" ? { rows } : {}),
    });
  }
  return kept.length > 0 ? kept : null;
}

/**
 * The audit row of one question: who, from where, the question, the SQL that ran (or the error the asker was told:
 * a typed error's SQLSTATE and message, anything else a generic `XX000`), confidence and its basis, the
 * interpretations offered, counts instead of rows. Pure.
 */
export function auditRowOf(
  asker: QuestionAsker,
  question: string,
  outcome: AuditedOutcome,
  askedAt: Date,
): NewQuestionAuditRow {
  const common = {
    askedAt,
    dataSource: asker.dataSource,
    role: asker.role,
    surface: asker.surface,
    clientAddress: label(asker.clientAddress),
    applicationName: label(asker.applicationName),
    question: clip(question, maximumTextLength),
  };
  if ("answer" in outcome) {
    const answer = outcome.answer;
    return {
      ...common,
      sql: clip(answer.sql, maximumTextLength),
      ok: true,
      confidence: answer.confidence ?? null,
      confidenceBasis: answer.selection.basis,
      rows: answer.result.rows.length,
      truncated: answer.truncated,
      interpretations: auditedInterpretations(answer),
      model: answer.model.id,
      elapsedMilliseconds: Math.round(answer.elapsedMilliseconds),
    };
  }
  const error = outcome.error;
  const typed = error instanceof NlqError;
  return {
    ...common,
    sql: null,
    ok: false,
    errorCode: typed ? error.code : "XX000",
    errorMessage: typed ? clip(error.message, maximumTextLength) : "internal error",
    elapsedMilliseconds: Math.max(0, Math.round(Date.now() - askedAt.getTime())),
  };
}
