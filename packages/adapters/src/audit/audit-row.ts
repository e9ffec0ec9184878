import { type Answer, type ComparedReading, describeDifference, NlqError } from "@nlq/engine";
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

/**
 * A reading picked under an earlier answer where the surface keeps no `Answer` (the web app re-runs the stored
 * reading's SQL): the SQL that ran, the rows as a count, which reading of how many, and its support.
 */
export interface AuditedPick {
  readonly sql: string;
  readonly rows: number;
  readonly truncated: boolean;
  /** The reading's number as shown (#1 is nlq's pick). */
  readonly number: number;
  /** Candidates that returned it, of `outOf` written. */
  readonly support: number;
  readonly outOf: number;
  readonly elapsedMilliseconds: number;
}

/** What became of a question: its answer, a reading picked under it, or the error the asker was told. */
export type AuditedOutcome = { readonly answer: Answer } | { readonly pick: AuditedPick } | { readonly error: unknown };

/** Longest question or SQL kept (a hostile client may send anything; the queue holds at most 1,000 rows). */
const maximumTextLength = 10_000;
/** Longest SQL kept per interpretation. */
const maximumInterpretationSqlLength = 4_000;
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

/** A reading without its rows: what `describeDifference` can say from SQL, columns and counts alone. */
function rowlessReading(item: Record<string, unknown>): ComparedReading | undefined {
  const { sql, columns, rowCount, truncated } = item;
  if (typeof sql !== "string" || typeof rowCount !== "number") return undefined;
  const names = Array.isArray(columns) ? columns.filter((name): name is string => typeof name === "string") : [];
  return { sql, columns: names, rows: [], rowCount, truncated: truncated === true };
}

/**
 * The interpretations offered with an answer (`Answer.interpretations`, when the candidates disagreed), as the audit
 * keeps them: SQL, support, whether it is the chosen one, its rows as a count (`rowCount`), and how it differs from
 * the chosen one computed again without rows (`describeDifference` over SQL, columns and counts): the line shown to
 * the asker may quote a value from the rows, which the audit never keeps. Preview rows and anything else are left out.
 */
export function auditedInterpretations(answer: Answer): AuditedInterpretation[] | null {
  const offered = (answer as { readonly interpretations?: unknown }).interpretations;
  if (!Array.isArray(offered) || offered.length === 0) return null;
  const items = offered
    .slice(0, maximumInterpretations)
    .filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null);
  const chosenItem = items.find((item) => item.chosen === true);
  const chosen = chosenItem ? rowlessReading(chosenItem) : undefined;
  const kept: AuditedInterpretation[] = [];
  for (const item of items) {
    const { sql, support, chosen: isChosen } = item;
    if (typeof sql !== "string") continue;
    const reading = rowlessReading(item);
    const difference =
      isChosen === true ? "the chosen reading" : reading && chosen ? describeDifference(reading, chosen) : undefined;
    kept.push({
      sql: clip(sql, maximumInterpretationSqlLength),
      ...(typeof support === "number" && Number.isFinite(support) ? { support } : {}),
      ...(reading ? { rows: reading.rowCount } : {}),
      ...(typeof isChosen === "boolean" ? { chosen: isChosen } : {}),
      ...(difference === undefined ? {} : { difference }),
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
  if ("pick" in outcome) {
    const pick = outcome.pick;
    return {
      ...common,
      sql: clip(pick.sql, maximumTextLength),
      ok: true,
      confidence: null,
      // As answerWithInterpretation words a pick on the other surfaces: a person chose, nothing was compared.
      confidenceBasis: `picked by the user: interpretation #${pick.number} (${pick.support} of ${pick.outOf} candidates returned it)`,
      rows: pick.rows,
      truncated: pick.truncated,
      elapsedMilliseconds: Math.max(0, Math.round(pick.elapsedMilliseconds)),
    };
  }
  const error = outcome.error;
  const typed = NlqError.isInstance(error);
  return {
    ...common,
    sql: null,
    ok: false,
    errorCode: typed ? error.code : "XX000",
    errorMessage: typed ? clip(error.message, maximumTextLength) : "internal error",
    elapsedMilliseconds: Math.max(0, Math.round(Date.now() - askedAt.getTime())),
  };
}
