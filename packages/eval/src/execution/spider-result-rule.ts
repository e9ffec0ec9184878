import type { ComparableResult } from "@nlq/engine";
import { scanSync } from "libpg-query";

/**
 * Execution accuracy under the official Spider rule: the test-suite evaluation's `result_eq` and `eval_exec_match`
 * (taoyds/test-suite-sql-eval, `exec_eval.py`, run as its `evaluation.py` runs it by default: `--keep_distinct` and
 * `--plug_value` off). Beside nlq's own rule (`compareResults`: column order counts, order compared only when the gold
 * orders at its top level), it differs in four ways, all the official script's:
 *
 * - a **permutation of columns** is the same result (`SELECT name, age` matches `SELECT age, name`);
 * - row order counts whenever the gold's text contains `order by` anywhere (`'order by' in g_str.lower()`), a
 *   subquery's included;
 * - two empty results are equal whatever their columns;
 * - `DISTINCT` is removed from both queries before they run (`remove_distinct`, `spiderRuleSql`).
 *
 * Values compare as the script sees SQLite's: numbers (a column PostgreSQL types as integer, float, numeric or oid) as
 * IEEE doubles, exactly (`1` = `1.0`, `12.50` = `12.5`, no tolerance), everything else as its text, NULL = NULL, and a
 * number never equals a text.
 */

/** int2, int4, int8, oid, float4, float8, numeric: the types whose values compare as numbers. */
const numericTypes = new Set([21, 23, 20, 26, 700, 701, 1700]);

/** Most column permutations tried before giving up on finding one (a result with many interchangeable columns). */
export const spiderPermutationLimit = 100_000;

/** Each cell as one comparable key: `n` for NULL, `#<double>` for a number, `'<text>` for anything else. */
function rowKeys(result: ComparableResult): string[][] {
  const numeric = result.columnTypes.map((type) => numericTypes.has(type));
  return result.rows.map((row) =>
    numeric.map((isNumber, index) => {
      const value = row[index] ?? null;
      if (value === null) return "n";
      return isNumber ? `#${Number(value)}` : `'${value}`;
    }),
  );
}

/** The official `order_matters`: the gold's text holds `order by` (lower-cased, anywhere). */
export function spiderOrderMatters(goldSql: string): boolean {
  return goldSql.toLowerCase().includes("order by");
}

/**
 * The official `remove_distinct`: every `DISTINCT` keyword token dropped (`SELECT DISTINCT`, `count(DISTINCT x)`).
 * PostgreSQL-only spellings that would not parse without it are kept: `DISTINCT ON (…)` and `IS [NOT] DISTINCT FROM`.
 * Text the scanner cannot read comes back unchanged. Needs `loadSqlParser()` to have settled.
 */
export function spiderRuleSql(sql: string): string {
  let tokens: ReturnType<typeof scanSync>["tokens"];
  try {
    tokens = scanSync(sql).tokens;
  } catch {
    return sql;
  }
  const word = (index: number) => (tokens[index]?.keywordKind ? tokens[index]!.text.toUpperCase() : undefined);
  let text = "";
  let copied = 0;
  tokens.forEach((token, index) => {
    if (word(index) !== "DISTINCT") return;
    if (word(index + 1) === "ON" || word(index - 1) === "IS" || word(index + 1) === "FROM") return;
    text += sql.slice(copied, token.start);
    copied = token.end;
  });
  return text + sql.slice(copied);
}

function joined(row: readonly string[]): string {
  return JSON.stringify(row);
}

function multiset(rows: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(joined(row), (counts.get(joined(row)) ?? 0) + 1);
  return counts;
}

function sameMultiset(left: Map<string, number>, right: readonly (readonly string[])[]): boolean {
  const remaining = new Map(left);
  for (const row of right) {
    const key = joined(row);
    const count = remaining.get(key) ?? 0;
    if (count === 0) return false;
    remaining.set(key, count - 1);
  }
  return true;
}

/**
 * The column permutations that could map the predicted result onto the gold (`get_constraint_permutation`): predicted
 * column j may stand at gold position i only if every value of j occurs in gold column i. The official script checks
 * 20 sampled rows; checking all rows prunes the same impossible mappings, and more, so the verdict is the same.
 */
function* candidatePermutations(gold: string[][], predicted: string[][], columns: number): Generator<number[]> {
  const goldValues = Array.from({ length: columns }, (_, column) => new Set(gold.map((row) => row[column]!)));
  const allowed = goldValues.map((values) =>
    Array.from({ length: columns }, (_, column) => column).filter((column) =>
      predicted.every((row) => values.has(row[column]!)),
    ),
  );
  const chosen: number[] = [];
  const used = new Set<number>();
  function* extend(position: number): Generator<number[]> {
    if (position === columns) {
      yield [...chosen];
      return;
    }
    for (const column of allowed[position]!) {
      if (used.has(column)) continue;
      used.add(column);
      chosen.push(column);
      yield* extend(position + 1);
      chosen.pop();
      used.delete(column);
    }
  }
  yield* extend(0);
}

/**
 * The official `result_eq(gold, predicted, order_matters)`: true when some permutation of the predicted result's
 * columns makes its rows equal to the gold's — as lists when `orderMatters`, else as multisets. Empty results are
 * equal; different row or column counts are not. Gives up (not equal) after `spiderPermutationLimit` permutations.
 */
export function spiderResultsEqual(
  gold: ComparableResult,
  predicted: ComparableResult,
  orderMatters: boolean,
): boolean {
  if (gold.rows.length === 0 && predicted.rows.length === 0) return true;
  if (gold.rows.length !== predicted.rows.length) return false;
  const columns = gold.columnTypes.length;
  if (predicted.columnTypes.length !== columns) return false;
  const goldRows = rowKeys(gold);
  const predictedRows = rowKeys(predicted);
  const goldCounts = multiset(goldRows);
  let tried = 0;
  for (const permutation of candidatePermutations(goldRows, predictedRows, columns)) {
    if (++tried > spiderPermutationLimit) return false;
    const permuted = predictedRows.map((row) => permutation.map((column) => row[column]!));
    if (orderMatters) {
      if (permuted.every((row, index) => joined(row) === joined(goldRows[index]!))) return true;
    } else if (sameMultiset(goldCounts, permuted)) {
      return true;
    }
  }
  return false;
}
