import type { ComparableResult } from "@nlq/engine";
import {
  alwaysQuoteIdentifier,
  DatabaseError,
  loadFunctionPolicy,
  NlqError,
  type QueryExecutor,
  runReadOnly,
  validateSql,
} from "@nlq/engine";

/** Outcome of running one statement for evaluation: its result, or the error PostgreSQL (or the cap) reported. */
export type EvaluationRun =
  | {
      readonly ok: true;
      readonly result: ComparableResult;
      /** Column names of the result, in order (shown to selection models; never compared). */
      readonly columnNames: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

export interface EvaluationExecutorOptions {
  /** The session the statements run on (e.g. `createPgExecutor` over a `pg.Client`). */
  readonly session: QueryExecutor;
  /** `statement_timeout` of each statement, in milliseconds. Default 30000. */
  readonly statementTimeoutMilliseconds?: number;
  /** Most bytes of result kept; a larger result counts as an error. Default 64 MiB. */
  readonly resultByteLimit?: number;
  /** `NLQ_ALLOWED_FUNCTIONS`: functions the policy allows beyond its own rules. Default none. */
  readonly allowedFunctions?: readonly string[];
  /** `NLQ_TRUSTED_OWNERS`, as for a question's candidates. Default none. */
  readonly trustedOwners?: readonly string[];
}

/** Runs one statement for evaluation, optionally with `search_path` set to `schema` for that statement only. */
export type EvaluationExecutor = (sql: string, schema?: string) => Promise<EvaluationRun>;

function quotedLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The thin I/O side of execution accuracy: each statement runs alone in the engine's read-only scope
 * (`runReadOnly`: `BEGIN READ ONLY`, transaction-local `statement_timeout`, rolled back after), with `search_path`
 * set transaction-locally to the question's schema when one is given, unwrapped (so the statement's own ORDER BY is
 * what PostgreSQL returns) and with a byte cap. Like every other path, each statement is first validated by the
 * engine (`validateSql`: exactly one read-only query, functions decided against `pg_proc` under the session's role and
 * search path, loaded once per schema). Trailing semicolons are dropped (by `validateSql`). Errors (a refusal, the statement's, a
 * timeout, a broken connection) come back as a failed run, never thrown.
 */
export function createEvaluationExecutor(options: EvaluationExecutorOptions): EvaluationExecutor {
  const resultByteLimit = options.resultByteLimit ?? 64 * 1024 * 1024;
  const policies = new Map<string, Awaited<ReturnType<typeof loadFunctionPolicy>>>();
  return async (sql, schema) => {
    try {
      const result = await runReadOnly(
        { session: options.session, statementTimeoutMilliseconds: options.statementTimeoutMilliseconds ?? 30_000 },
        async (query) => {
          if (schema !== undefined) {
            await query(
              `SELECT pg_catalog.set_config('search_path', ${quotedLiteral(alwaysQuoteIdentifier(schema))}, true)`,
            );
          }
          const policyKey = schema ?? "";
          let policy = policies.get(policyKey);
          if (policy === undefined) {
            policy = await loadFunctionPolicy(query, options.allowedFunctions ?? [], options.trustedOwners ?? []);
            policies.set(policyKey, policy);
          }
          return query((await validateSql(sql, policy)).sql, { resultByteLimit });
        },
      );
      if (result.cutByBytes) return { ok: false, error: `result larger than ${resultByteLimit} bytes` };
      return {
        ok: true,
        result: { columnTypes: result.fields.map((field) => field.dataTypeId), rows: result.rows },
        columnNames: result.fields.map((field) => field.name),
      };
    } catch (error) {
      if (DatabaseError.isInstance(error) || NlqError.isInstance(error)) {
        return { ok: false, error: `${error.message} (SQLSTATE ${error.code})` };
      }
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
