import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { parseHallucinatedSchema } from "@nlq/prompts";
import { embedMany } from "ai";
import type { Vector } from "../../embedding/vector-math";
import { type CrushSelectionOptions, crushProbeVector, selectColumnsCollectively } from "./crush-selection";
import { type ColumnSimilarityIndex, ColumnVectorIndex } from "./dense-column-ranking";
import { type SchemaColumn, schemaColumnText } from "./schema-column";
import { buildSchemaGraph, type ColumnLink, inferKeyLinks, type SchemaGraph } from "./schema-graph";

/** Options of `createSchemaRetriever`. */
export interface SchemaRetrieverOptions {
  readonly columns: readonly SchemaColumn[];
  readonly embeddingModel: EmbeddingModelV3;
  /** Foreign-key links by column index. Default: `inferKeyLinks(columns)` (same key-like name, same database). */
  readonly links?: readonly ColumnLink[];
  /** Weight of the question in each CRUSH probe vector (`crushProbeVector`). Default 0.45 (tuned on BirdUnion). */
  readonly probeQuestionWeight?: number;
  /** CRUSH hyperparameters. */
  readonly crush?: CrushSelectionOptions;
  /** Builds the search index over the column vectors. Default: `new ColumnVectorIndex(vectors)` (dense exact scan). */
  readonly createIndex?: (columnVectors: readonly Vector[]) => ColumnSimilarityIndex;
  readonly abortSignal?: AbortSignal;
}

/** Weight of the question in each CRUSH probe vector, tuned on BirdUnion. */
export const defaultProbeQuestionWeight = 0.45;

/** Ranks catalog columns for a question: question-only dense retrieval, or CRUSH with a hallucinated schema. */
export interface SchemaRetriever {
  readonly name: "schema-retriever";
  /** Top `budget` columns by cosine to the question text. */
  retrieveByQuestion(options: { question: string; budget: number }): Promise<SchemaColumn[]>;
  /** Top `budget` columns by CRUSH over the hallucinated schema (`Table(col, col)` strings). */
  retrieveCollectively(options: {
    question: string;
    hallucinated: readonly string[];
    budget: number;
  }): Promise<SchemaColumn[]>;
}

/** Embeds `values` with any AI SDK embedding model. */
export async function embedTexts(
  model: EmbeddingModelV3,
  values: readonly string[],
  abortSignal?: AbortSignal,
): Promise<Vector[]> {
  if (values.length === 0) return [];
  const { embeddings } = await embedMany({ model, values: [...values], abortSignal });
  return embeddings;
}

/**
 * Text embedded for one hallucinated element: `table.column column`. The column's words count twice because
 * hallucinated table names match real ones less often than hallucinated column names do (measured on BirdUnion).
 */
export function hallucinatedElementText(table: string, column: string): string {
  if (column === "") return table;
  return `${table}.${column} ${column}`;
}

/** Embeds the catalog once and answers retrieval requests against it. */
export async function createSchemaRetriever(options: SchemaRetrieverOptions): Promise<SchemaRetriever> {
  const columnVectors = await embedTexts(
    options.embeddingModel,
    options.columns.map((column) => schemaColumnText(column)),
  );
  const index = options.createIndex ? options.createIndex(columnVectors) : new ColumnVectorIndex(columnVectors);
  const graph = buildSchemaGraph(options.columns, options.links ?? inferKeyLinks(options.columns));
  const indexes = { columns: index, graph };
  const questionWeight = options.probeQuestionWeight ?? defaultProbeQuestionWeight;
  return {
    name: "schema-retriever",
    async retrieveByQuestion({ question, budget }) {
      const [questionVector] = await embedTexts(options.embeddingModel, [question], options.abortSignal);
      return indexes.columns.rank(questionVector!, budget).map((column) => options.columns[column]!);
    },
    async retrieveCollectively({ question, hallucinated, budget }) {
      const elements = parseHallucinatedSchema(hallucinated);
      const [questionVector, ...elementVectors] = await embedTexts(
        options.embeddingModel,
        [question, ...elements.map((element) => hallucinatedElementText(element.table, element.column))],
        options.abortSignal,
      );
      const picked = rankCollectively({
        questionVector: questionVector!,
        elementVectors,
        columns: indexes.columns,
        graph: indexes.graph,
        budget,
        questionWeight,
        crush: options.crush ?? {},
      });
      return picked.map((column) => options.columns[column]!);
    },
  };
}

/**
 * CRUSH ranking from vectors: builds one probe per hallucinated element (mixed with the question), selects
 * collectively, and falls back to the question-only ranking beyond C(x). With no elements it is the question ranking.
 */
export function rankCollectively(input: {
  questionVector: Vector;
  elementVectors: readonly Vector[];
  columns: ColumnSimilarityIndex;
  graph: SchemaGraph;
  budget: number;
  questionWeight: number;
  crush: CrushSelectionOptions;
}): number[] {
  const questionRanking = input.columns.rank(input.questionVector);
  if (input.elementVectors.length === 0) return questionRanking.slice(0, input.budget);
  const probeVectors = input.elementVectors.map((element) =>
    crushProbeVector(input.questionVector, element, input.questionWeight),
  );
  return selectColumnsCollectively(
    {
      probeVectors,
      columns: input.columns,
      graph: input.graph,
      budget: input.budget,
      fallbackRanking: questionRanking,
    },
    input.crush,
  );
}
