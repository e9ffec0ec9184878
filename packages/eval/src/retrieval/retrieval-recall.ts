/** |gold ∩ top-k retrieved| / |gold| for one question (1 when gold is empty). Keys are compared lower-cased. */
export function recallAtBudget(gold: readonly string[], retrieved: readonly string[], budget: number): number {
  const goldSet = new Set(gold.map((key) => key.toLowerCase()));
  if (goldSet.size === 0) return 1;
  const top = new Set(retrieved.slice(0, budget).map((key) => key.toLowerCase()));
  let hits = 0;
  for (const key of goldSet) if (top.has(key)) hits++;
  return hits / goldSet.size;
}

/** Mean recall per budget over questions, each question given as (gold, ranked retrieved keys). */
export function meanRecallByBudget(
  results: readonly { gold: readonly string[]; retrieved: readonly string[] }[],
  budgets: readonly number[],
): Record<string, number> {
  const recall: Record<string, number> = {};
  for (const budget of budgets) {
    const total = results.reduce((sum, result) => sum + recallAtBudget(result.gold, result.retrieved, budget), 0);
    recall[String(budget)] = results.length === 0 ? 0 : total / results.length;
  }
  return recall;
}
