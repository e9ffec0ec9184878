import type { AuditedOutcome, QuestionAsker, WebThreadStore } from "@nlq/adapters";
import type { EditedSqlResult } from "./run-edited-sql";
import { storedReading } from "./stored-reading";

export interface PickReadingOptions {
  readonly threads: Pick<WebThreadStore, "turn">;
  /** The signed-in user: the turn must be one of this role's, on this data source. */
  readonly user: { readonly role: string; readonly dataSource: string };
  readonly turnId: string;
  /** The reading's number as the page shows it. */
  readonly number: number;
  /** Runs the reading's SQL as the user's role, validated again and read-only (`runEditedSql`). */
  readonly run: (sql: string) => Promise<EditedSqlResult>;
  /** The audit trail (`MetadataStore.auditTrail`) and who asks, from where. */
  readonly audit: {
    readonly trail: { record(asker: QuestionAsker, question: string, outcome: AuditedOutcome): void };
    readonly asker: QuestionAsker;
  };
}

/**
 * A reading picked under one of the user's stored answers (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md,
 * rule 2): its SQL is taken from the stored answer — never from the browser — run as the user's role (validated
 * again, read-only, with the pipeline's caps), and the one thing kept is the audit entry (the SQL, the row count,
 * "picked by the user: interpretation #2 …"), as the proxy's `/* nl#2 *\/;` keeps. Nothing is saved in the user's
 * name. Undefined when the user has no such turn; throws `InterpretationNotFoundError` for a number its answer does
 * not offer, and what `run` throws (`SqlValidationError`, PostgreSQL's error).
 */
export async function pickReading(options: PickReadingOptions): Promise<EditedSqlResult | undefined> {
  const reading = await storedReading(options.threads, options.user, options.turnId, options.number);
  if (!reading) return undefined;
  const { question, picked } = reading;
  const started = performance.now();
  const result = await options.run(picked.sql);
  options.audit.trail.record(options.audit.asker, question, {
    pick: {
      sql: result.sql,
      rows: result.totalRows,
      truncated: false,
      number: picked.number,
      support: picked.support,
      outOf: picked.outOf,
      elapsedMilliseconds: performance.now() - started,
    },
  });
  return result;
}
