import type { VerifiedExample } from "../contract/answer";
import type { QueryExecutor, TransactionStatus } from "../database/query-executor";
import { type ReadOnlyQuery, runReadOnly } from "../database/read-only-session";
import { CancelledError } from "../errors/cancelled-error";
import { escapedStringLiteral } from "../retrieval/values/value-visibility-statement";
import { sharedFunctionPolicyCache } from "../sql/function-policy-cache";
import { alwaysQuoteIdentifier } from "../sql/quote-identifier";
import { validateSql } from "../sql/validate-sql";
import { exampleLiterals, type LiteralProbe } from "./example-literals";

export interface ReadableExamplesOptions<T extends VerifiedExample> {
  /** The asking role's own session: privileges and row-level security are that role's. */
  readonly session: QueryExecutor;
  /** The session's transaction state now. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** Candidate pairs, best first. */
  readonly examples: readonly T[];
  /** `NLQ_ALLOWED_FUNCTIONS`: the same function policy as generated SQL. */
  readonly allowedFunctions?: readonly string[];
  /** `NLQ_TRUSTED_OWNERS`, as for generated SQL. Default none. */
  readonly trustedOwners?: readonly string[];
  /** `statement_timeout` of each check, in milliseconds; a check that times out drops its pair. */
  readonly statementTimeoutMilliseconds: number;
  /**
   * Pairs whose literals need no row check: the asking role's own (it wrote them from rows it saw). Their SQL is
   * still validated and its privileges checked. Default: none.
   */
  readonly ownExample?: (example: T) => boolean;
  /**
   * Time for all checks, in milliseconds: once spent, the pairs not yet checked are dropped (a question is not kept
   * waiting for its examples). Default: no limit.
   */
  readonly budgetMilliseconds?: number;
  /** Most pairs kept (checking stops there). Default: all. */
  readonly limit?: number;
  readonly abortSignal?: AbortSignal;
}

const exampleSavepoint = "nlq_example_check";

/** Whether a column's text matches a probe, with every operator and function schema-qualified. */
function probeCondition(probe: LiteralProbe): string {
  const column = alwaysQuoteIdentifier(probe.column);
  if (probe.kind === "number" && !/^-?\d+(\.\d*)?([eE][-+]?\d+)?$/.test(probe.value)) return "false";
  const literal = probe.kind === "number" ? probe.value : escapedStringLiteral(probe.value);
  if (probe.match === "equal" && probe.columnFunction === undefined)
    return `${column} OPERATOR(pg_catalog.=) ${literal}`;
  const text = `${column}::pg_catalog.text`;
  const cell = probe.columnFunction ? `pg_catalog.${probe.columnFunction}(${text})` : text;
  const operator = { equal: "=", like: "~~", ilike: "~~*", regex: "~", iregex: "~*" }[probe.match];
  return `${cell} OPERATOR(pg_catalog.${operator}) ${escapedStringLiteral(probe.value)}`;
}

function tableName(probe: LiteralProbe): string {
  const schema = probe.table.schema === undefined ? "" : `${alwaysQuoteIdentifier(probe.table.schema)}.`;
  return `${schema}${alwaysQuoteIdentifier(probe.table.name)}`;
}

/**
 * `SELECT EXISTS (…)`: true when a row the running role can see holds the probed value; false without reading
 * anything when the name is not an ordinary, partitioned or materialized table (a view's or foreign table's body is
 * never run by a check).
 */
function literalProbeSql(probe: LiteralProbe): string {
  const table = tableName(probe);
  return [
    "SELECT CASE WHEN (SELECT c.relkind FROM pg_catalog.pg_class c",
    `WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(${escapedStringLiteral(table)})) IN ('r', 'p', 'm')`,
    `THEN EXISTS (SELECT FROM ${table} WHERE ${probeCondition(probe)}) ELSE false END`,
  ].join(" ");
}

/** Whether the running role may be shown the pair; any refusal or error means no. */
async function readable(query: ReadOnlyQuery, sql: string, policy: Parameters<typeof validateSql>[1], own: boolean) {
  const validated = (await validateSql(sql, policy)).sql;
  const literals = own ? { verifiable: true as const, probes: [] } : exampleLiterals(validated);
  if (!literals.verifiable) return false;
  // Privileges: PostgreSQL checks the table and column privileges of every relation at executor start, which
  // EXPLAIN (without ANALYZE) reaches without running the query.
  await query(`EXPLAIN (COSTS OFF) ${validated}`);
  for (const probe of literals.probes) {
    const result = await query(literalProbeSql(probe));
    if (result.rows[0]?.[0] !== "t") return false;
  }
  return true;
}

/**
 * The pairs the session's role may be shown, in the given order, at most `limit`: a pair is kept only when, run as
 * that role in one read-only transaction (statement timeout, same validation and function policy as generated SQL),
 * (1) its SQL passes `validateSql`, (2) `EXPLAIN` of it succeeds — the role holds the privileges on every table and
 * column it uses — and (3) every data literal it compares a column with (`exampleLiterals`) is held by a row the
 * role can see under row-level security (not for the role's own pairs, `ownExample`). A pair whose literals cannot
 * be traced to columns is dropped. Each pair is
 * checked under its own savepoint, so one failing check never affects the next. Who may be offered which pair (its
 * owner, or everyone for an administrator's) is the store's business; this is the check against the data.
 */
export async function readableExamples<T extends VerifiedExample>(options: ReadableExamplesOptions<T>): Promise<T[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (options.examples.length === 0 || limit <= 0) return [];
  return runReadOnly(
    {
      session: options.session,
      transactionStatus: options.transactionStatus,
      statementTimeoutMilliseconds: options.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    async (query) => {
      const started = Date.now();
      const budget = options.budgetMilliseconds ?? Number.POSITIVE_INFINITY;
      const policy = await sharedFunctionPolicyCache.load(query, options.allowedFunctions, options.trustedOwners);
      const kept: T[] = [];
      for (const example of options.examples) {
        if (kept.length >= limit || Date.now() - started >= budget) break;
        await query(`SAVEPOINT ${exampleSavepoint}`);
        let ok = false;
        try {
          ok = await readable(query, example.sql, policy, options.ownExample?.(example) ?? false);
        } catch (error) {
          if (CancelledError.isInstance(error) || options.abortSignal?.aborted) throw error;
        }
        await query(`ROLLBACK TO SAVEPOINT ${exampleSavepoint}`);
        await query(`RELEASE SAVEPOINT ${exampleSavepoint}`);
        if (ok) kept.push(example);
      }
      return kept;
    },
  );
}
