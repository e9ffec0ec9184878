/**
 * Defog's gold notation (sql-eval's `get_all_minimal_queries`), as alternatives a prediction may match:
 * - `;` separates alternative gold queries (empty parts are dropped);
 * - in each part, the first `{a,b,…}` lists acceptable columns: it expands into every non-empty subset of them, in
 *   the listed order (`{a,b}` → `a`, `b`, `a, b`), and a `GROUP BY {}` in the rest of the part becomes
 *   `GROUP BY <the same subset>`.
 * Text without braces or semicolons is one alternative, unchanged (trailing whitespace trimmed). Like sql-eval, the
 * split is textual: a `;`, `{` or `}` inside a string literal of a gold query is not supported.
 */
export function expandGoldAlternatives(gold: string): string[] {
  const alternatives: string[] = [];
  for (const part of gold.split(";")) {
    const query = part.trim();
    if (query === "") continue;
    const start = query.indexOf("{");
    const end = start === -1 ? -1 : query.indexOf("}", start + 1);
    if (start === -1 || end === -1) {
      alternatives.push(query);
      continue;
    }
    const options = query
      .slice(start + 1, end)
      .split(",")
      .map((option) => option.trim());
    const before = query.slice(0, start);
    const after = query.slice(end + 1);
    for (const subset of nonEmptySubsets(options)) {
      const columns = subset.join(", ");
      alternatives.push(`${before}${columns}${after.replaceAll("GROUP BY {}", `GROUP BY ${columns}`)}`);
    }
  }
  return alternatives;
}

/** Every non-empty subset in itertools.combinations order: by size, then lexicographically by position. */
function nonEmptySubsets<T>(items: readonly T[]): T[][] {
  const subsets: T[][] = [];
  const choose = (size: number, from: number, chosen: T[]) => {
    if (chosen.length === size) {
      subsets.push([...chosen]);
      return;
    }
    for (let index = from; index < items.length; index++) choose(size, index + 1, [...chosen, items[index]!]);
  };
  for (let size = 1; size <= items.length; size++) choose(size, 0, []);
  return subsets;
}
