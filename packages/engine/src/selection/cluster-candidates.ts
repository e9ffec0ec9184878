import type { CappedResult } from "../database/read-only-session";
import { loadSqlParser } from "../sql/validate-sql";
import type { CandidateCluster, ExecutedCandidate } from "./candidate-selector";
import { normalizedSqlKey } from "./normalize-sql";
import { type ComparableResult, compareResults } from "./result-comparison";
import { ordersAtTopLevel } from "./top-level-order";

/** A capped result as the comparison sees it: column type OIDs and text rows. */
export function comparableResult(result: CappedResult): ComparableResult {
  return { columnTypes: result.result.fields.map((field) => field.dataTypeId), rows: result.result.rows };
}

/**
 * Whether two candidates' results are the same answer: equal row multisets (`compareResults`: column names ignored,
 * column order kept, numbers equal within 1e-6, NULL = NULL), compared in row order only when BOTH SQL texts order at
 * their top level — one ordered and one unordered candidate agree when their rows agree, since the unordered one
 * states no order to disagree with. Results cut by a cap (`truncated`) compare on the rows kept, and only with results
 * cut the same way (a cut result never equals a complete one).
 */
export function sameAnswer(
  left: { readonly result: CappedResult; readonly ordered: boolean },
  right: { readonly result: CappedResult; readonly ordered: boolean },
): boolean {
  if (left.result.truncated !== right.result.truncated) return false;
  return compareResults(comparableResult(left.result), comparableResult(right.result), {
    ordered: left.ordered && right.ordered,
  }).equal;
}

/** Whether a result has no rows at all (and was not cut: a cut result always has rows). */
function isEmpty(result: CappedResult): boolean {
  return result.result.rows.length === 0 && !result.truncated;
}

/**
 * Groups executed candidates by result (`sameAnswer`). Each candidate joins the first cluster (in order of creation)
 * whose representative — its first member — gives the same answer, else starts a new cluster; so membership is
 * decided against the representative only (the relation is not transitive when order matters for some members).
 * Clusters come sorted largest first; equal sizes by their first member's index. Members keep candidate order.
 *
 * Results with no rows agree only when the queries are the same (`normalizedSqlKey`): unrelated queries that all find
 * nothing (a wrong filter value, a wrong join) are not votes for one answer, so they stay apart and the selector
 * compares them, instead of forming one cluster that wins by its size with confidence 1.
 */
export async function clusterCandidates(candidates: readonly ExecutedCandidate[]): Promise<CandidateCluster[]> {
  await loadSqlParser();
  const groups: Array<{ members: ExecutedCandidate[]; ordered: boolean; emptyKey?: string }> = [];
  for (const candidate of candidates) {
    const entry = {
      result: candidate.result,
      ordered: ordersAtTopLevel(candidate.sql),
      emptyKey: isEmpty(candidate.result) ? normalizedSqlKey(candidate.sql) : undefined,
    };
    const group = groups.find(
      (existing) =>
        existing.emptyKey === entry.emptyKey &&
        sameAnswer({ result: existing.members[0]!.result, ordered: existing.ordered }, entry),
    );
    if (group) group.members.push(candidate);
    else groups.push({ members: [candidate], ordered: entry.ordered, emptyKey: entry.emptyKey });
  }
  return groups
    .sort(
      (left, right) => right.members.length - left.members.length || left.members[0]!.index - right.members[0]!.index,
    )
    .map(({ members }) => ({ members, representative: members[0]! }));
}
