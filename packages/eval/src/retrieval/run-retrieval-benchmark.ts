import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { CrushSelectionOptions, LearnedRetrievalModel, Vector } from "@nlq/engine";
import {
  buildSchemaGraph,
  ColumnVectorIndex,
  defaultLearnedRetrievalModel,
  defaultProbeQuestionWeight,
  embedTexts,
  hallucinatedElementText,
  inferKeyLinks,
  rankCollectively,
  type SchemaColumn,
  schemaColumnKey,
  schemaColumnText,
} from "@nlq/engine";
import { parseHallucinatedSchema } from "@nlq/prompts";
import { percentile } from "../statistics";
import { fuseRankings, rankQuestionsWithLearnedModel } from "./learned-retrieval-modes";
import type { RetrievalQuestion } from "./retrieval-benchmark-data";
import { meanRecallByBudget } from "./retrieval-recall";

/**
 * What is measured: question-only dense retrieval or CRUSH over the recorded hallucinated schema, ± BIRD evidence;
 * `question+learned` is the learnt model's question-only ranking (what the live selector uses), `crush+learned` CRUSH
 * fused (reciprocal rank) with it.
 */
export type RetrievalMode =
  | "question"
  | "crush"
  | "question+evidence"
  | "crush+evidence"
  | "question+learned"
  | "crush+learned";

export const retrievalModes: readonly RetrievalMode[] = [
  "question",
  "crush",
  "question+evidence",
  "crush+evidence",
  "question+learned",
  "crush+learned",
];

/** The budgets of CRUSH4SQL Table 2. */
export const defaultRetrievalBudgets: readonly number[] = [3, 5, 10, 20, 30, 50, 100];

export interface RetrievalBenchmarkOptions {
  readonly corpus: readonly SchemaColumn[];
  readonly questions: readonly RetrievalQuestion[];
  readonly embeddingModel: EmbeddingModelV3;
  /** Modes to run. Default `["question", "question+evidence"]`. */
  readonly modes?: readonly RetrievalMode[];
  /** Budgets k of recall@k. Default 3, 5, 10, 20, 30, 50, 100. */
  readonly budgets?: readonly number[];
  /** Weight of the question in each CRUSH probe. Default `defaultProbeQuestionWeight` (0.45). */
  readonly probeQuestionWeight?: number;
  /** CRUSH hyperparameters (defaults of `selectColumnsCollectively`). */
  readonly crush?: CrushSelectionOptions;
  /** Embed columns as `database.table.column` instead of `table.column`. Default true. */
  readonly includeDatabase?: boolean;
  /** Learnt retrieval model of the `+learned` modes. Default: the shipped one (`defaultLearnedRetrievalModel`). */
  readonly learnedModel?: LearnedRetrievalModel;
  readonly abortSignal?: AbortSignal;
}

export interface RetrievalBenchmarkResult {
  readonly questions: number;
  /** Mean recall per mode, then per budget (keys are the budgets as strings). Modes not run are absent. */
  readonly recall: Partial<Record<RetrievalMode, Record<string, number>>>;
  /** Median milliseconds per question of the learnt question-only ranking (embed + search + re-rank), when run. */
  readonly learnedMedianMilliseconds?: number;
}

function queryText(question: RetrievalQuestion, withEvidence: boolean): string {
  return withEvidence && question.evidence ? `${question.question} ${question.evidence}` : question.question;
}

/** Measures recall@k of schema retrieval on a CRUSH4SQL-format benchmark (no language-model call). */
export async function runRetrievalBenchmark(options: RetrievalBenchmarkOptions): Promise<RetrievalBenchmarkResult> {
  const modes = options.modes ?? ["question", "question+evidence"];
  const budgets = options.budgets ?? defaultRetrievalBudgets;
  const largestBudget = Math.max(...budgets);
  const keys = options.corpus.map(schemaColumnKey);
  const columnVectors = await embedTexts(
    options.embeddingModel,
    options.corpus.map((column) => schemaColumnText(column, { includeDatabase: options.includeDatabase ?? true })),
    options.abortSignal,
  );
  const index = new ColumnVectorIndex(columnVectors);
  const graph = buildSchemaGraph(options.corpus, inferKeyLinks(options.corpus));
  const recall: Partial<Record<RetrievalMode, Record<string, number>>> = {};
  const elementTexts = options.questions.map((question) =>
    parseHallucinatedSchema(question.hallucinated).map((element) =>
      hallucinatedElementText(element.table, element.column),
    ),
  );
  const elementVectors = modes.some((mode) => mode.startsWith("crush"))
    ? await embedGrouped(options.embeddingModel, elementTexts, options.abortSignal)
    : [];
  // The question and crush modes share their query texts: each variant (± evidence) is embedded once.
  const queryVectorsByVariant = new Map<boolean, Vector[]>();
  const learned = modes.some((mode) => mode.endsWith("+learned"))
    ? rankQuestionsWithLearnedModel(
        options.corpus,
        options.questions.map((question) => question.question),
        options.learnedModel ?? defaultLearnedRetrievalModel(),
        largestBudget,
      )
    : undefined;
  for (const mode of modes) {
    if (mode === "question+learned" && learned) {
      recall[mode] = meanRecallByBudget(
        options.questions.map((question, position) => ({
          gold: question.gold,
          retrieved: learned.rankings[position]!.map((column) => keys[column]!),
        })),
        budgets,
      );
      continue;
    }
    const withEvidence = mode.endsWith("+evidence");
    let queryVectors = queryVectorsByVariant.get(withEvidence);
    if (!queryVectors) {
      queryVectors = await embedTexts(
        options.embeddingModel,
        options.questions.map((question) => queryText(question, withEvidence)),
        options.abortSignal,
      );
      queryVectorsByVariant.set(withEvidence, queryVectors);
    }
    const results = options.questions.map((question, position) => {
      const questionVector = queryVectors[position]!;
      const crushed = mode.startsWith("crush")
        ? rankCollectively({
            questionVector,
            elementVectors: elementVectors[position] ?? [],
            columns: index,
            graph,
            budget: largestBudget,
            questionWeight: options.probeQuestionWeight ?? defaultProbeQuestionWeight,
            crush: options.crush ?? {},
          })
        : index.rank(questionVector, largestBudget);
      const ranked =
        mode === "crush+learned" && learned
          ? fuseRankings(crushed, learned.rankings[position]!, largestBudget)
          : crushed;
      return { gold: question.gold, retrieved: ranked.map((column) => keys[column]!) };
    });
    recall[mode] = meanRecallByBudget(results, budgets);
  }
  return {
    questions: options.questions.length,
    recall,
    ...(learned
      ? { learnedMedianMilliseconds: learned.milliseconds.length === 0 ? 0 : percentile(learned.milliseconds, 50) }
      : {}),
  };
}

async function embedGrouped(
  model: EmbeddingModelV3,
  groups: readonly (readonly string[])[],
  abortSignal: AbortSignal | undefined,
) {
  const flat = await embedTexts(model, groups.flat(), abortSignal);
  let offset = 0;
  return groups.map((group) => {
    const slice = flat.slice(offset, offset + group.length);
    offset += group.length;
    return slice;
  });
}
