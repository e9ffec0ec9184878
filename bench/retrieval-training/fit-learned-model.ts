import {
  type CandidateFeatures,
  createQuestionColumnRanking,
  denseFeatureNames,
  LearnedColumnRanker,
  type LearnedRetrievalModel,
  learnedRetrievalModelFormat,
  questionTerms,
  type SchemaColumn,
  schemaColumnKey,
} from "@nlq/engine";
import type { LabelledQuestion } from "./training-data";
import { seededRandom, shuffled } from "./training-data";

/** Questions ranked over one corpus (a union of training databases). */
export interface TrainingSet {
  readonly columns: readonly SchemaColumn[];
  readonly questions: readonly LabelledQuestion[];
}

export interface FitOptions {
  /** Artefact version written into the model. */
  readonly version: string;
  /** Passes over the training questions. Default 6. */
  readonly epochs?: number;
  /** AdaGrad step size. Default 0.1. */
  readonly learningRate?: number;
  /** Dense weights move this many times faster than sparse ones (few features, large scale). Default 20. */
  readonly denseLearningRateFactor?: number;
  /** L2 penalty per update on the touched weights. Default 1e-4. */
  readonly l2?: number;
  /** Lexical candidates per question during training (gold columns outside are added). Default 150. */
  readonly trainingCandidates?: number;
  /** Candidates the shipped model re-scores at inference. Default 300. */
  readonly candidateLimit?: number;
  /** Sparse features seen fewer times than this (over all candidates of one pass) are not learnt. Default 3. */
  readonly minimumCount?: number;
  /** Largest number of sparse weights kept (largest |weight| first). Default 60,000. */
  readonly maximumSparse?: number;
  readonly seed?: number;
  /** Informational counts recorded in the artefact. */
  readonly training?: Record<string, unknown>;
}

interface Example {
  readonly candidates: CandidateFeatures[];
  /** Target probability per candidate (gold share), same order. */
  readonly targets: Float64Array;
}

/** Lexical candidates and gold targets of every question, computed once. */
export function buildExamples(sets: readonly TrainingSet[], trainingCandidates: number): Example[] {
  const examples: Example[] = [];
  for (const set of sets) {
    const ranking = createQuestionColumnRanking(set.columns);
    const ranker = new LearnedColumnRanker(set.columns);
    const positionOf = new Map(set.columns.map((column, position) => [schemaColumnKey(column), position]));
    for (const question of set.questions) {
      const gold = question.gold.map((key) => positionOf.get(key)).filter((position) => position !== undefined);
      if (gold.length === 0) continue;
      const similarities = ranking.similarities(question.question);
      const top = ranking.rank(question.question, trainingCandidates);
      const chosen = [...top, ...gold.filter((position) => !top.includes(position))];
      const candidates = ranker.candidates(questionTerms(question.question), similarities, 0, chosen);
      const goldSet = new Set(gold);
      const targets = Float64Array.from(candidates, (candidate) =>
        goldSet.has(candidate.column) ? 1 / goldSet.size : 0,
      );
      examples.push({ candidates, targets });
    }
  }
  return examples;
}

/**
 * Fits the model by listwise softmax cross-entropy (each question's gold columns against its lexical candidates) with
 * AdaGrad; deterministic for a given seed and input order.
 */
export function fitLearnedModel(sets: readonly TrainingSet[], options: FitOptions): LearnedRetrievalModel {
  const epochs = options.epochs ?? 6;
  const learningRate = options.learningRate ?? 0.1;
  const l2 = options.l2 ?? 1e-4;
  const denseLearningRate = learningRate * (options.denseLearningRateFactor ?? 20);
  const examples = buildExamples(sets, options.trainingCandidates ?? 150);
  const counts = new Map<string, number>();
  for (const example of examples)
    for (const candidate of example.candidates)
      for (const key of candidate.sparse) counts.set(key, (counts.get(key) ?? 0) + 1);
  const minimumCount = options.minimumCount ?? 3;
  const dense = new Float64Array(denseFeatureNames.length);
  dense[0] = 10; // start from the lexical ranking
  const denseSquares = new Float64Array(denseFeatureNames.length).fill(1e-8);
  const sparse = new Map<string, number>();
  const sparseSquares = new Map<string, number>();
  const random = seededRandom(options.seed ?? 1);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const example of shuffled(examples, random)) {
      const scores = example.candidates.map((candidate) => {
        let score = 0;
        candidate.dense.forEach((value, position) => {
          score += dense[position]! * value;
        });
        for (const key of candidate.sparse) score += sparse.get(key) ?? 0;
        return score;
      });
      const largest = Math.max(...scores);
      const exponentials = scores.map((score) => Math.exp(score - largest));
      const total = exponentials.reduce((sum, value) => sum + value, 0);
      example.candidates.forEach((candidate, position) => {
        const gradient = exponentials[position]! / total - example.targets[position]!;
        if (Math.abs(gradient) < 1e-6) return;
        candidate.dense.forEach((value, feature) => {
          const step = gradient * value;
          denseSquares[feature]! += step * step;
          dense[feature]! -= (denseLearningRate * step) / Math.sqrt(denseSquares[feature]!);
        });
        for (const key of candidate.sparse) {
          if ((counts.get(key) ?? 0) < minimumCount) continue;
          const weight = sparse.get(key) ?? 0;
          const step = gradient + l2 * weight;
          const squares = (sparseSquares.get(key) ?? 1e-8) + step * step;
          sparseSquares.set(key, squares);
          sparse.set(key, weight - (learningRate * step) / Math.sqrt(squares));
        }
      });
    }
  }
  const kept = [...sparse.entries()]
    .map(([key, weight]) => [key, Math.round(weight * 1000) / 1000] as const)
    .filter(([, weight]) => weight !== 0)
    .sort((left, right) => Math.abs(right[1]) - Math.abs(left[1]) || (left[0] < right[0] ? -1 : 1))
    .slice(0, options.maximumSparse ?? 60_000);
  const denseWeights = Object.fromEntries(
    denseFeatureNames.map((name, position) => [name, Math.round(dense[position]! * 10_000) / 10_000]),
  ) as Record<(typeof denseFeatureNames)[number], number>;
  return {
    format: learnedRetrievalModelFormat,
    version: options.version,
    candidateLimit: options.candidateLimit ?? 300,
    dense: denseWeights,
    sparse: new Map(kept),
    training: { examples: examples.length, epochs, learningRate, l2, seed: options.seed ?? 1, ...options.training },
  };
}
