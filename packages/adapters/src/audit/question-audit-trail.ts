import type { MetadataDatabase } from "../metadata/metadata-database";
import { type NewQuestionAuditRow, questionAudit } from "../metadata/schema/question-audit";
import { type AuditedOutcome, auditRowOf, type QuestionAsker } from "./audit-row";

export interface QuestionAuditTrailOptions {
  /** Rows waiting to be written before new ones are dropped (and counted). Default 1,000. */
  readonly maximumQueued?: number;
  /** Receives write failures and dropped rows. Default: `console.error`. */
  readonly logError?: (message: string, error?: unknown) => void;
}

/** Rows written per INSERT. */
const batchSize = 100;

/**
 * The audit trail of the metadata store (`question_audit`). `record` is the one way every surface (proxy, web, MCP,
 * `nlq ask`) audits a question: it never throws and never waits — the row joins a bounded in-memory queue written in
 * the background; a failed write is logged, and rows beyond the bound are dropped and counted. `flush` waits for the
 * queue (the store's `close` calls it).
 */
export class QuestionAuditTrail {
  readonly #database: MetadataDatabase;
  readonly #maximumQueued: number;
  readonly #logError: (message: string, error?: unknown) => void;
  readonly #queue: NewQuestionAuditRow[] = [];
  #draining: Promise<void> | undefined;
  #dropped = 0;

  constructor(database: MetadataDatabase, options: QuestionAuditTrailOptions = {}) {
    this.#database = database;
    this.#maximumQueued = Math.max(1, options.maximumQueued ?? 1_000);
    this.#logError =
      options.logError ??
      ((message, error) => console.error(`nlq: ${message}`, ...(error === undefined ? [] : [error])));
  }

  /** Rows dropped because the queue was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Audits one question (answered or failed) asked by `asker` at `askedAt`. Never throws, returns at once. */
  record(asker: QuestionAsker, question: string, outcome: AuditedOutcome, askedAt: Date = new Date()): void {
    try {
      if (this.#queue.length >= this.#maximumQueued) {
        this.#dropped += 1;
        if (this.#dropped === 1 || this.#dropped % 1_000 === 0)
          this.#logError(`the audit trail's queue is full: ${this.#dropped} questions not audited`);
        return;
      }
      this.#queue.push(auditRowOf(asker, question, outcome, askedAt));
      // Written after the caller's turn: recording never delays the answer.
      this.#draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
    } catch (error) {
      this.#logError("cannot audit a question", error);
    }
  }

  /** Waits until every queued row is written (or failed), at most `timeoutMilliseconds`; true when the queue drained. */
  async flush(timeoutMilliseconds = 5_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMilliseconds);
    });
    try {
      while (this.#draining !== undefined) {
        const drained = await Promise.race([this.#draining.then(() => true), timedOut]);
        if (!drained) return false;
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, batchSize);
      try {
        await this.#database.insert(questionAudit).values(batch);
      } catch (error) {
        this.#logError(`cannot write ${batch.length} audit ${batch.length === 1 ? "row" : "rows"}`, error);
      }
    }
    this.#draining = undefined;
  }
}
