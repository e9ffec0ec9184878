import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type {
  CrushSelectionOptions,
  LearnedRetrievalModel,
  ValueIndex,
  ValueVoteFusionOptions,
  Vector,
} from "@nlq/engine";
import {
  buildSchemaGraph,
  ColumnVectorIndex,
  ConfigurationError,
  type CrushProbe,
  crushProbeText,
  crushProbeVector,
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
  | "crush+learned"
  | "question+learned+values"
  | "question+learned+structure"
  | "question+learned+values+structure";

export const retrievalModes: readonly RetrievalMode[] = [
  "question",
  "crush",
  "question+evidence",
  "crush+evidence",
  "question+learned",
  "crush+learned",
  "question+learned+values",
  "question+learned+structure",
  "question+learned+values+structure",
];

/** The learnt question-only modes with their optional steps (value-aware fusion, structure expansion). */
const learnedStepModes = {
  "question+learned": { values: false, structure: false },
  "question+learned+values": { values: true, structure: false },
  "question+learned+structure": { values: false, structure: true },
  "question+learned+values+structure": { values: true, structure: true },
} as const;

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
  /**
   * How CRUSH probes meet the question: `"joint"` (the paper's "x t.c" embedded as one text) or the weight of the
   * question's vector mixed into the element's (`defaultProbeQuestionWeight`, the lexical embedder's tuned mix).
   * Default `defaultProbeQuestionWeight` (as the live retriever).
   */
  readonly probe?: CrushProbe;
  /** CRUSH hyperparameters (defaults of `selectColumnsCollectively`). */
  readonly crush?: CrushSelectionOptions;
  /** Embed columns as `database.table.column` instead of `table.column`. Default true. */
  readonly includeDatabase?: boolean;
  /** Learnt retrieval model of the `+learned` modes. Default: the shipped one (`defaultLearnedRetrievalModel`). */
  readonly learnedModel?: LearnedRetrievalModel;
  /** Values of the corpus's columns, required by the `+values` modes (e.g. `buildWarehouseValueIndex`). */
  readonly valueIndex?: ValueIndex;
  /** Fusion parameters of the `+values` modes. Default `fuseValueVotes`'s. */
  readonly valueFusion?: ValueVoteFusionOptions;
  readonly abortSignal?: AbortSignal;
}

export interface RetrievalBenchmarkResult {
  readonly questions: number;
  /** Mean recall per mode, then per budget (keys are the budgets as strings). Modes not run are absent. */
  readonly recall: Partial<Record<RetrievalMode, Record<string, number>>>;
  /** Median milliseconds per question of the learnt question-only ranking (embed + search + re-rank), when run. */
  readonly learnedMedianMilliseconds?: number;
  /** Median milliseconds per question of each learnt mode (with its value look-ups and steps). */
  readonly medianMilliseconds?: Partial<Record<RetrievalMode, number>>;
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
  const probe = options.probe ?? defaultProbeQuestionWeight;
  // Probe texts per evidence variant: a joint probe holds the question (± evidence) itself.
  const probeVectorsByVariant = new Map<boolean, Vector[][]>();
  const probeVectorsOf = async (withEvidence: boolean, queryVectors: readonly Vector[]) => {
    const known = probeVectorsByVariant.get(probe === "joint" ? withEvidence : false);
    if (known) return known;
    const texts = options.questions.map((question) =>
      parseHallucinatedSchema(question.hallucinated).map((element) =>
        probe === "joint"
          ? crushProbeText(queryText(question, withEvidence), element.table, element.column)
          : hallucinatedElementText(element.table, element.column),
      ),
    );
    const embedded = await embedGrouped(options.embeddingModel, texts, options.abortSignal);
    const vectors =
      probe === "joint"
        ? embedded
        : embedded.map((elements, position) =>
            elements.map((element) => crushProbeVector(queryVectors[position]!, element, probe)),
          );
    if (probe === "joint") probeVectorsByVariant.set(withEvidence, vectors);
    return vectors;
  };
  // The question and crush modes share their query texts: each variant (± evidence) is embedded once.
  const queryVectorsByVariant = new Map<boolean, Vector[]>();
  const learnedModel = options.learnedModel ?? defaultLearnedRetrievalModel();
  const questionTexts = options.questions.map((question) => question.question);
  const learned =
    modes.includes("question+learned") || modes.includes("crush+learned")
      ? await rankQuestionsWithLearnedModel(options.corpus, questionTexts, learnedModel, largestBudget)
      : undefined;
  const medianMilliseconds: Partial<Record<RetrievalMode, number>> = {};
  for (const mode of modes) {
    if (mode in learnedStepModes) {
      const steps = learnedStepModes[mode as keyof typeof learnedStepModes];
      if (steps.values && !options.valueIndex) throw new ConfigurationError(`mode ${mode} needs a value index`);
      const ranked =
        mode === "question+learned" && learned
          ? learned
          : await rankQuestionsWithLearnedModel(options.corpus, questionTexts, learnedModel, largestBudget, {
              valueIndex: steps.values ? options.valueIndex : undefined,
              valueFusion: options.valueFusion,
              structure: steps.structure,
            });
      medianMilliseconds[mode] = ranked.milliseconds.length === 0 ? 0 : percentile(ranked.milliseconds, 50);
      recall[mode] = meanRecallByBudget(
        options.questions.map((question, position) => ({
          gold: question.gold,
          retrieved: ranked.rankings[position]!.map((column) => keys[column]!),
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
    const probeVectors = mode.startsWith("crush") ? await probeVectorsOf(withEvidence, queryVectors) : [];
    const results = options.questions.map((question, position) => {
      const questionVector = queryVectors[position]!;
      const crushed = mode.startsWith("crush")
        ? rankCollectively({
            questionVector,
            probeVectors: probeVectors[position] ?? [],
            columns: index,
            graph,
            budget: largestBudget,
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
    ...(Object.keys(medianMilliseconds).length > 0 ? { medianMilliseconds } : {}),
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
