import { ordinaryTables, type RelationName, relationKey } from "../../database/ordinary-tables";
import type { QueryExecutor, TransactionStatus } from "../../database/query-executor";
import { type ReadOnlyQuery, runReadOnly } from "../../database/read-only-session";
import { DatabaseError } from "../../errors/database-errors";
import type { FunctionPolicy } from "../../sql/function-policy";
import { mayReadValues, valueReadPolicy } from "../../sql/value-read-policy";
import { type ValueProbe, valueProbeKey, valueVisibilityStatements } from "./value-visibility-statement";

export interface VisibleValuesOptions {
  /** `statement_timeout` of each table's check, in milliseconds (a slow table drops its values). Default 1,000. */
  readonly timeoutMilliseconds?: number;
  readonly abortSignal?: AbortSignal;
  /** The policy deciding which tables are safe to read (`mayReadValues`). Default: the session's (`valueReadPolicy`). */
  readonly policy?: FunctionPolicy;
}

function uniqueRelations(probes: readonly ValueProbe[]): RelationName[] {
  const relations = new Map<string, RelationName>();
  for (const { schema, table } of probes) relations.set(relationKey({ schema, table }), { schema, table });
  return [...relations.values()];
}

/**
 * The keys (`valueProbeKey`) of the probes the current role can see in some row of an ordinary or partitioned table
 * (`ordinaryTables`: a view's or foreign table's values are never visible, so never probed) whose reading runs no code
 * the function policy refuses (`mayReadValues`), under its own privileges and
 * row-level security: every table's statement (`valueVisibilityStatements`) at once, and when that fails or is slow,
 * one statement per table, each in its own savepoint, all under one short `statement_timeout` set inside an outer
 * savepoint, so a table that fails (no privilege, a broken view) or is slow only drops its own values. Must run inside `runReadOnly` on the asking session; the scope's timeout is restored.
 */
export async function visibleValues(
  query: ReadOnlyQuery,
  probes: readonly ValueProbe[],
  options: VisibleValuesOptions = {},
): Promise<Set<string>> {
  const visible = new Set<string>();
  // Only stored rows are probed: a view's body or a foreign table's wrapper would run in the asking session, and so
  // would a row-level security policy or a column type's cast that another role planted (`mayReadValues`).
  const relations = uniqueRelations(probes);
  const policy = relations.length === 0 ? undefined : await valueReadPolicy(query, options.policy);
  const stored = await ordinaryTables(
    query,
    relations.filter((relation) => policy !== undefined && mayReadValues(policy, relation)),
  );
  const statements = valueVisibilityStatements(
    probes.filter((probe) => stored.has(relationKey({ schema: probe.schema, table: probe.table }))),
  );
  if (statements.length === 0) return visible;
  const timeout = Math.max(1, Math.floor(options.timeoutMilliseconds ?? 1_000));
  await query("SAVEPOINT nlq_visibility");
  try {
    await query(`SET LOCAL statement_timeout = ${timeout}`);
    // All tables in one statement first (one round trip instead of three per table), with as much time as one per
    // table would have had; only when it fails for another reason than time are the tables checked one by one, so a
    // failing table still drops only its own values.
    if (statements.length > 1) {
      const batch = await allTablesAtOnce(query, statements, visible, timeout, options.abortSignal);
      if (batch !== "failed") return visible;
    }
    for (const statement of statements) {
      await query("SAVEPOINT nlq_visibility_table");
      try {
        const result = await query(statement.sql);
        for (const [position] of result.rows) {
          const probe = statement.probes[Number(position)];
          if (probe) visible.add(valueProbeKey(probe));
        }
      } catch (error) {
        await query("ROLLBACK TO SAVEPOINT nlq_visibility_table");
        // A failing or slow table shows none of its values; a cancelled question stops here.
        if (options.abortSignal?.aborted || !DatabaseError.isInstance(error)) throw error;
      }
      await query("RELEASE SAVEPOINT nlq_visibility_table");
    }
  } finally {
    // Nothing was written; this also reverts the short timeout.
    await query("ROLLBACK TO SAVEPOINT nlq_visibility");
    await query("RELEASE SAVEPOINT nlq_visibility");
  }
  return visible;
}

/**
 * Runs every table's check as one statement in its own savepoint under `timeout` × tables: `done` (visible probes
 * added), `timed-out` (nothing added: checking table by table would take as long again, so none is shown), or
 * `failed` (nothing added; check table by table).
 */
async function allTablesAtOnce(
  query: ReadOnlyQuery,
  statements: ReturnType<typeof valueVisibilityStatements>,
  visible: Set<string>,
  timeout: number,
  abortSignal: AbortSignal | undefined,
): Promise<"done" | "timed-out" | "failed"> {
  const combined = statements
    .map(
      (statement, index) =>
        `SELECT ${index} AS statement, visible.position FROM (${statement.sql}) AS visible(position)`,
    )
    .join(" UNION ALL ");
  await query("SAVEPOINT nlq_visibility_table");
  try {
    await query(`SET LOCAL statement_timeout = ${timeout * statements.length}`);
    const result = await query(combined);
    for (const [index, position] of result.rows) {
      const probe = statements[Number(index)]?.probes[Number(position)];
      if (probe) visible.add(valueProbeKey(probe));
    }
    return "done";
  } catch (error) {
    if (abortSignal?.aborted || !DatabaseError.isInstance(error)) throw error;
    return error.code === "57014" ? "timed-out" : "failed";
  } finally {
    // Nothing was written; this also reverts the batch's longer timeout.
    await query("ROLLBACK TO SAVEPOINT nlq_visibility_table");
    await query("RELEASE SAVEPOINT nlq_visibility_table");
  }
}

/**
 * Which probes the asking role can see (keys as `valueProbeKey`); see `createValueVisibility`. `abortSignal` (the
 * question's) cancels the running check.
 */
export type ValueVisibility = (
  probes: readonly ValueProbe[],
  options?: { readonly abortSignal?: AbortSignal },
) => Promise<ReadonlySet<string>>;

export interface ValueVisibilityOptions extends Omit<VisibleValuesOptions, "abortSignal"> {
  /** The asking user's session: every check runs on it, as its role. */
  readonly session: QueryExecutor;
  /** The session's transaction state. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
}

/**
 * `visibleValues` on the asking session, each call in its own read-only scope (`runReadOnly`). When the scope itself
 * cannot run (e.g. the session's transaction failed), nothing is visible: values only decorate a prompt, so they fail
 * closed rather than failing the question.
 */
export function createValueVisibility(options: ValueVisibilityOptions): ValueVisibility {
  return async (probes, call = {}) => {
    if (probes.length === 0) return new Set();
    try {
      return await runReadOnly(
        {
          session: options.session,
          transactionStatus: options.transactionStatus ?? "idle",
          statementTimeoutMilliseconds: options.timeoutMilliseconds ?? 1_000,
          abortSignal: call.abortSignal,
        },
        (query) => visibleValues(query, probes, { ...options, abortSignal: call.abortSignal }),
      );
    } catch (error) {
      if (DatabaseError.isInstance(error) && !call.abortSignal?.aborted) return new Set();
      throw error;
    }
  };
}
