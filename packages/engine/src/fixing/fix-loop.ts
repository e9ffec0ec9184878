import { fixCandidatePrompt, fixCandidateSystemPrompt, sqlCandidateOutputSchema } from "@nlq/prompts";
import type { CappedResult } from "../database/read-only-session";
import { DatabaseError, SqlValidationError } from "../errors/database-errors";
import { extractSql } from "../generation/extract-sql";
import type { StepContext } from "../llm/step-context";
import type { FunctionPolicy } from "../sql/function-policy";
import { validateSql } from "../sql/validate-sql";

export interface FixLoopOptions {
  /** Index of the candidate, for events. */
  readonly candidate: number;
  readonly sql: string;
  /** Rendered schema shown to the fixer. */
  readonly schema: string;
  /**
   * Functions and operators the SQL may call, loaded for this question from the target database under the asking
   * role (`loadFunctionPolicy`). Required: every path validates against the database's own `pg_proc`.
   */
  readonly policy: FunctionPolicy;
  /** Runs validated SQL read-only with the row cap. */
  readonly execute: (sql: string) => Promise<CappedResult>;
  readonly context: StepContext;
}

export interface FixedCandidate {
  /** The SQL that produced `result` (validated, trailing `;` stripped). */
  readonly sql: string;
  readonly result: CappedResult;
  /** Fixer calls made. */
  readonly revisions: number;
  /** The fixer's reasoning when it changed the query. */
  readonly reasoning?: string;
}

type Issue = { kind: "error"; code: string; message: string } | { kind: "empty" };

function isFixable(error: unknown): error is SqlValidationError | DatabaseError {
  return SqlValidationError.isInstance(error) || DatabaseError.isInstance(error);
}

/**
 * Validates and executes a candidate; on an error (SQLSTATE + message) or an empty result asks the fixer
 * (`fix-candidate`) for a revision, up to `settings.maxFixAttempts` times (β = 3). An empty result after the last
 * attempt is a valid empty answer; an error after the last attempt is thrown (`DatabaseError` or `SqlValidationError`).
 * When the fixer returns the same query (or an empty `sql`), the loop stops: an empty result is accepted as the
 * answer, an error is thrown as is — a scripted fixture can say "keep it" with `{ "sql": "" }`.
 *
 * A valid empty result is never lost: once a query ran and returned no rows, that result is the candidate's answer
 * whenever the fixing that follows fails — the fixer's call is unreadable, refused or cut by the deadline, or its
 * revision errs after the last attempt. Only the client's cancel is thrown then.
 */
export async function runFixLoop(options: FixLoopOptions): Promise<FixedCandidate> {
  const { context } = options;
  const maxAttempts = context.settings.maxFixAttempts;
  let sql = options.sql;
  let reasoning: string | undefined;
  /** The last query that ran and returned no rows: the answer if fixing it fails. */
  let validEmpty: FixedCandidate | undefined;
  const keepValidEmpty = (error: unknown): FixedCandidate => {
    if (!validEmpty || context.abortSignal?.aborted) throw error;
    return validEmpty;
  };
  for (let attempt = 0; ; attempt += 1) {
    context.throwIfCancelled();
    let issue: Issue;
    let executedSql = sql;
    let emptyResult: CappedResult | undefined;
    let failure: SqlValidationError | DatabaseError | undefined;
    try {
      executedSql = (await validateSql(sql, options.policy)).sql;
      const result = await options.execute(executedSql);
      if (result.result.rows.length > 0 || attempt >= maxAttempts) {
        return { sql: executedSql, result, revisions: attempt, reasoning };
      }
      issue = { kind: "empty" };
      emptyResult = result;
      validEmpty = { sql: executedSql, result, revisions: attempt, reasoning };
    } catch (error) {
      if (!isFixable(error) || attempt >= maxAttempts || context.abortSignal?.aborted) return keepValidEmpty(error);
      issue = { kind: "error", code: error.code, message: error.message };
      failure = error;
    }
    const reason = issue.kind === "empty" ? "empty result" : `${issue.code}: ${issue.message}`;
    context.emit({ type: "fix-start", candidate: options.candidate, attempt: attempt + 1, reason });
    let output: { readonly reasoning: string; readonly sql: string };
    try {
      output = await context.runModelStep({
        step: "fix-candidate",
        schema: sqlCandidateOutputSchema,
        system: fixCandidateSystemPrompt,
        prompt: fixCandidatePrompt({
          schema: options.schema,
          question: context.question,
          hint: context.hint,
          questionContext: context.questionContext,
          sql: executedSql,
          issue,
        }),
      });
    } catch (error) {
      return keepValidEmpty(error);
    }
    // The fixer's query is recovered like a generator's (fences, prose, several blocks, trailing semicolons).
    const proposed = extractSql(output.sql);
    const revised = (await validateSql(proposed, options.policy).catch(() => ({ sql: proposed }))).sql;
    if (revised === "" || revised === executedSql) {
      // The fixer keeps the query: an empty result is then the answer; an error stays the error.
      context.emit({ type: "fix-end", candidate: options.candidate, attempt: attempt + 1, sql: executedSql });
      if (emptyResult) return { sql: executedSql, result: emptyResult, revisions: attempt + 1, reasoning };
      return keepValidEmpty(failure);
    }
    sql = revised;
    reasoning = output.reasoning;
    context.emit({ type: "fix-end", candidate: options.candidate, attempt: attempt + 1, sql });
  }
}
