import type { ColumnTokens } from "./learned-features";

/**
 * A model's sparse weights (`p:<token>`, `c:<term>|<token>`, `t:<term>|<token>`, see `sparseFeatureKeys`) indexed by
 * question term, so ranking sums a candidate's weights without building its feature keys: a question term with no
 * learnt weight costs nothing per candidate. Same sum, in the same order, as adding up `sparseFeatureKeys`' weights.
 */
export class SparseWeightIndex {
  readonly #prior = new Map<string, number>();
  readonly #column = new Map<string, Map<string, number>>();
  readonly #table = new Map<string, Map<string, number>>();

  constructor(weights: ReadonlyMap<string, number>) {
    for (const [key, weight] of weights) {
      const kind = key.slice(0, 2);
      if (kind === "p:") this.#prior.set(key.slice(2), weight);
      else if (kind === "c:" || kind === "t:") {
        const separator = key.indexOf("|");
        if (separator < 0) continue;
        const byTerm = kind === "c:" ? this.#column : this.#table;
        const term = key.slice(2, separator);
        let byToken = byTerm.get(term);
        if (byToken === undefined) {
          byToken = new Map();
          byTerm.set(term, byToken);
        }
        byToken.set(key.slice(separator + 1), weight);
      }
    }
  }

  /** The weights of one question's terms, to score many candidates with (`QuestionSparseWeights.score`). */
  forQuestion(terms: readonly string[]): QuestionSparseWeights {
    const empty = new Map<string, number>();
    return new QuestionSparseWeights(
      this.#prior,
      terms.map((term) => [this.#column.get(term) ?? empty, this.#table.get(term) ?? empty] as const),
    );
  }
}

/** Sparse weights of one question's terms (from `SparseWeightIndex.forQuestion`). */
export class QuestionSparseWeights {
  constructor(
    private readonly prior: ReadonlyMap<string, number>,
    private readonly byTerm: readonly (readonly [ReadonlyMap<string, number>, ReadonlyMap<string, number>])[],
  ) {}

  /** Sum of the weights of a column's feature keys, in `sparseFeatureKeys` order. */
  score(tokens: ColumnTokens): number {
    let score = 0;
    for (const token of tokens.column) score += this.prior.get(token) ?? 0;
    for (const [column, table] of this.byTerm) {
      if (column.size > 0) for (const token of tokens.column) score += column.get(token) ?? 0;
      if (table.size > 0) for (const token of tokens.table) score += table.get(token) ?? 0;
    }
    return score;
  }
}
