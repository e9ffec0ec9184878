import type { Catalog } from "../../catalog/catalog-types";
import type { QueryExecutor, TransactionStatus } from "../../database/query-executor";
import { runReadOnly } from "../../database/read-only-session";
import { DatabaseError } from "../../errors/database-errors";
import { mayReadValues, valueReadPolicy } from "../../sql/value-read-policy";
import { liveValueStatements } from "./live-value-statement";
import { normalizeValue } from "./normalize-value";
import { gramHashes, jaccard } from "./shingles";
import type { KeywordCandidates, ValueCandidate } from "./value-candidate";

export type { KeywordCandidates } from "./value-candidate";

/**
 * Looks the question's keywords up in the database itself, for a data source whose value index is not (yet) built:
 * see `createLiveValueLookup`. Only columns of `catalog` (already restricted to the asking role) are read.
 */
export type LiveValueLookup = (options: {
  readonly catalog: Catalog;
  readonly keywords: readonly string[];
  /** Candidates kept per keyword, best Jaccard first. Default 10 (CHESS's top 10). */
  readonly candidatesPerKeyword?: number;
  readonly abortSignal?: AbortSignal;
}) => Promise<KeywordCandidates[]>;

export interface LiveValueLookupOptions {
  /** The asking user's session: every lookup runs on it, as its role, read-only. */
  readonly session: QueryExecutor;
  /** The session's transaction state. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** `statement_timeout` of each table's statement, in milliseconds (a slow table gives nothing). Default 1,000. */
  readonly tableTimeoutMilliseconds?: number;
  /** Wall-clock budget of the whole lookup; tables not started by then are skipped. Default 2,000. */
  readonly budgetMilliseconds?: number;
  /** Tables looked at, in catalog order. Default 200. */
  readonly maxTables?: number;
  /** Distinct values each column returns at most (best 3-gram score first). Default 20. */
  readonly valuesPerColumn?: number;
}

/**
 * The bounded live form of CHESS retrieve_entity: for each ordinary or partitioned table of the catalog with text
 * columns, one statement (`liveValueStatements`) returns the distinct values sharing the most 3-grams with a keyword
 * (`LIKE` patterns over the lower-cased value, no extension needed), on the asking session inside a read-only scope
 * (tables whose reading runs code the function policy refuses are skipped: `mayReadValues`), so PostgreSQL applies the
 * role's grants and row-level security itself. Each table runs in its own savepoint under a short `statement_timeout`
 * and the whole lookup stops starting tables after `budgetMilliseconds`; a failing or slow table, or a scope that
 * cannot run at all (a failed transaction), gives no values rather than failing the question. Candidates are then
 * ranked per keyword by exact 3-gram Jaccard, as the value index ranks its LSH candidates.
 */
export function createLiveValueLookup(options: LiveValueLookupOptions): LiveValueLookup {
  const tableTimeout = Math.max(1, Math.floor(options.tableTimeoutMilliseconds ?? 1_000));
  const budget = options.budgetMilliseconds ?? 2_000;
  return async ({ catalog, keywords, candidatesPerKeyword = 10, abortSignal }) => {
    const statements = liveValueStatements(catalog, keywords, {
      limitPerColumn: options.valuesPerColumn ?? 20,
      maxTables: options.maxTables ?? 200,
    });
    const found: Array<{ column: ValueCandidate["column"]; value: string }> = [];
    if (statements.length > 0) {
      const started = performance.now();
      try {
        await runReadOnly(
          {
            session: options.session,
            transactionStatus: options.transactionStatus ?? "idle",
            statementTimeoutMilliseconds: tableTimeout,
            abortSignal,
          },
          async (query) => {
            const policy = await valueReadPolicy(query);
            for (const statement of statements) {
              if (performance.now() - started > budget) break;
              // A table whose reading runs code another role planted (an RLS policy, a column type's cast) is skipped.
              const relation = statement.columns[0];
              if (relation === undefined || !mayReadValues(policy, relation)) continue;
              await query("SAVEPOINT nlq_live_values");
              try {
                const result = await query(statement.sql);
                for (const [position, value] of result.rows) {
                  const column = statement.columns[Number(position)];
                  if (column && value) found.push({ column, value });
                }
                await query("RELEASE SAVEPOINT nlq_live_values");
              } catch (error) {
                if (abortSignal?.aborted || !DatabaseError.isInstance(error)) throw error;
                await query("ROLLBACK TO SAVEPOINT nlq_live_values");
                await query("RELEASE SAVEPOINT nlq_live_values");
              }
            }
          },
        );
      } catch (error) {
        if (!DatabaseError.isInstance(error) || abortSignal?.aborted) throw error;
        // The scope itself could not run: values only decorate a prompt, so none rather than a failed question.
      }
    }
    return keywords.map((keyword) => {
      const keywordGrams = gramHashes(normalizeValue(keyword));
      const candidates = found
        .map(({ column, value }) => ({
          column,
          value,
          jaccard: jaccard(keywordGrams, gramHashes(normalizeValue(value))),
        }))
        .filter((candidate) => candidate.jaccard > 0)
        .sort((left, right) => right.jaccard - left.jaccard || left.value.length - right.value.length)
        .slice(0, candidatesPerKeyword);
      return { keyword, candidates };
    });
  };
}
