import { mixVectors, type Vector } from "../../embedding/vector-math";
import { type CrushObjectiveOptions, entropyGuidedScores, greedyCrushSelection } from "./crush-objective";
import { type ColumnSimilarityIndex, rankScores } from "./dense-column-ranking";
import type { SchemaGraph } from "./schema-graph";

/**
 * Hyperparameters of CRUSH collective retrieval. Defaults: `crushSettings` (the paper's, CRUSH4SQL §3.2 and §5.2,
 * except where BirdUnion's tuning half measured better: docs/decisions/2026-12-01-trained-offline-embedder.md).
 */
export interface CrushSelectionOptions extends CrushObjectiveOptions {
  /** Nearest columns kept per probe when forming the candidate set C(x). Default `crushSettings.neighboursPerProbe`. */
  readonly neighboursPerProbe?: number;
  /** Largest candidate set |C(x)| (filled round-robin over the probes' rankings). Default `crushSettings.candidateLimit`. */
  readonly candidateLimit?: number;
  /** γ, the edge score e(d, d') for columns of the same table. Default 0.01 (the paper's). */
  readonly edgeScore?: number;
  /** Edge score for columns joined by a (known or inferred) foreign key. Default: `edgeScore`. */
  readonly keyEdgeScore?: number;
  /**
   * Edge score for columns of different tables in the same database (schema). Not in the paper: it rewards subsets
   * that stay within one database of a multi-database catalog. Default `crushSettings.databaseEdgeScore`.
   */
  readonly databaseEdgeScore?: number;
}

/**
 * The paper's settings: τ = 1 (Eq. 3 is a plain log-sum-exp), |C(x)| = 100, γ = 0.01 for same-table and key edges
 * and no other edge, λ = 1. The paper does not say how many neighbours each probe keeps; every probe may fill C(x).
 */
export const paperCrushSettings = {
  coverageTemperature: 1,
  candidateLimit: 100,
  neighboursPerProbe: 100,
  edgeScore: 0.01,
  databaseEdgeScore: 0,
  connectivityWeight: 1,
} as const satisfies CrushSelectionOptions;

/**
 * The settings `selectColumnsCollectively` uses unless told otherwise: the paper's, except where BirdUnion's tuning
 * half measured better with both the lexical and the trained offline embedder (r@10 / r@20 0.720 / 0.832 against the
 * paper's 0.668 / 0.767 with the trained one): τ 0.1, |C(x)| 200 filled by 60 neighbours per probe, and an edge of
 * 0.01 between columns of one database of a multi-database catalog.
 */
export const crushSettings: Required<Omit<CrushSelectionOptions, "keyEdgeScore">> = {
  ...paperCrushSettings,
  coverageTemperature: 0.1,
  candidateLimit: 200,
  neighboursPerProbe: 60,
  databaseEdgeScore: 0.01,
};

/** Input of `selectColumnsCollectively`: vectors only, so any embedding model works. */
export interface CrushSelectionInput {
  /** One vector per hallucinated `table.column`, already embedded together with the question (`crushProbeVector`). */
  readonly probeVectors: readonly Vector[];
  /** The catalog's column vectors. */
  readonly columns: ColumnSimilarityIndex;
  readonly graph: SchemaGraph;
  /** Number of columns to return (B). */
  readonly budget: number;
  /**
   * Ranking used once C(x) is exhausted (e.g. the question-only dense ranking), so larger budgets are still filled.
   * Default: columns by their best cosine to any probe.
   */
  readonly fallbackRanking?: readonly number[];
}

/**
 * Embeds a hallucinated element together with the question (paper §3.2.1 embeds the text "x t.c"): the weighted,
 * normalised mix of the element's and the question's vectors. `questionWeight` 0 ignores the question.
 */
export function crushProbeVector(questionVector: Vector, elementVector: Vector, questionWeight: number): number[] {
  return mixVectors([
    { vector: elementVector, weight: 1 - questionWeight },
    { vector: questionVector, weight: questionWeight },
  ]);
}

/** CRUSH: candidate set from every probe's neighbours, then greedy Eq. 6 under the budget. Returns column indexes. */
export function selectColumnsCollectively(input: CrushSelectionInput, options: CrushSelectionOptions = {}): number[] {
  const settings = { ...crushSettings, ...options };
  const neighboursPerProbe = settings.neighboursPerProbe;
  const candidateLimit = settings.candidateLimit;
  const edgeScore = settings.edgeScore;
  const probeSimilarities = input.probeVectors.map((probe) => input.columns.similarities(probe));
  const rankings = probeSimilarities.map((similarities) => rankScores(similarities, neighboursPerProbe));
  const candidates: number[] = [];
  const seen = new Set<number>();
  for (let rank = 0; rank < neighboursPerProbe && candidates.length < candidateLimit; rank++) {
    for (const ranking of rankings) {
      const column = ranking[rank];
      if (column === undefined || seen.has(column) || candidates.length >= candidateLimit) continue;
      seen.add(column);
      candidates.push(column);
    }
  }
  const cosines = probeSimilarities.map((similarities) => candidates.map((column) => similarities[column] ?? 0));
  const scores = entropyGuidedScores(cosines);
  const keyEdgeScore = options.keyEdgeScore ?? edgeScore;
  const databaseEdgeScore = settings.databaseEdgeScore;
  const edge = (left: number, right: number) => {
    switch (input.graph.connection(candidates[left]!, candidates[right]!)) {
      case "key-link":
        return keyEdgeScore;
      case "same-table":
        return edgeScore;
      case "same-database":
        return databaseEdgeScore;
      default:
        return 0;
    }
  };
  const objective = {
    coverageTemperature: settings.coverageTemperature,
    connectivityWeight: settings.connectivityWeight,
  };
  const picked = greedyCrushSelection(scores, edge, candidates.length, input.budget, objective).map(
    (position) => candidates[position]!,
  );
  if (picked.length >= input.budget) return picked;
  const fallback = input.fallbackRanking ?? rankByBestProbe(probeSimilarities, input.columns.size);
  const chosen = new Set(picked);
  for (const column of fallback) {
    if (picked.length >= input.budget) break;
    if (!chosen.has(column)) {
      chosen.add(column);
      picked.push(column);
    }
  }
  return picked;
}

function rankByBestProbe(probeSimilarities: readonly Float64Array[], columnCount: number): number[] {
  const best = new Float64Array(columnCount).fill(Number.NEGATIVE_INFINITY);
  for (const similarities of probeSimilarities) {
    similarities.forEach((similarity, column) => {
      if (similarity > best[column]!) best[column] = similarity;
    });
  }
  return rankScores(best);
}
