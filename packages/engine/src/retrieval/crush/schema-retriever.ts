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
  /**
   * How each CRUSH probe meets the question: `"joint"` (the paper's §3.2.1: the text "x t.c" embedded as one,
   * `crushProbeText`) or a number, the weight of the question's own vector mixed into the element's
   * (`crushProbeVector`). Default `defaultProbeQuestionWeight` (0.45): with word vectors pooled without context, the
   * joint text lets the question's words outweigh the element's, and the mix measured better on BirdUnion's tuning half
   * (r@10 0.720 against 0.695 joint, same settings).
   */
  readonly probe?: CrushProbe;
  /** CRUSH hyperparameters. */
  readonly crush?: CrushSelectionOptions;
  /** Builds the search index over the column vectors. Default: `new ColumnVectorIndex(vectors)` (dense exact scan). */
  readonly createIndex?: (columnVectors: readonly Vector[]) => ColumnSimilarityIndex;
  readonly abortSignal?: AbortSignal;
}

/**
 * How a CRUSH probe is formed: `"joint"`, the question and the hallucinated element embedded as one text (CRUSH4SQL
 * §3.2.1), or the weight of the question's separately embedded vector in a mix with the element's.
 */
export type CrushProbe = "joint" | number;

/** Weight of the question in a mixed CRUSH probe vector, tuned on BirdUnion (both offline embedders). */
export const defaultProbeQuestionWeight = 0.45;

/** The text of a joint CRUSH probe: "x t.c" (CRUSH4SQL §3.2.1), the question, then the element. */
export function crushProbeText(question: string, table: string, column: string): string {
  return `${question} ${column === "" ? table : `${table}.${column}`}`;
}

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
 * Text embedded for one hallucinated element in a mixed probe (`probe` a number): `table.column column`. The column's words count twice because
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
  return {
    name: "schema-retriever",
    async retrieveByQuestion({ question, budget }) {
      const [questionVector] = await embedTexts(options.embeddingModel, [question], options.abortSignal);
      return indexes.columns.rank(questionVector!, budget).map((column) => options.columns[column]!);
    },
    async retrieveCollectively({ question, hallucinated, budget }) {
      const elements = parseHallucinatedSchema(hallucinated);
      const probe = options.probe ?? defaultProbeQuestionWeight;
      const texts =
        probe === "joint"
          ? elements.map((element) => crushProbeText(question, element.table, element.column))
          : elements.map((element) => hallucinatedElementText(element.table, element.column));
      const [questionVector, ...elementVectors] = await embedTexts(
        options.embeddingModel,
        [question, ...texts],
        options.abortSignal,
      );
      const picked = rankCollectively({
        questionVector: questionVector!,
        probeVectors:
          probe === "joint"
            ? elementVectors
            : elementVectors.map((element) => crushProbeVector(questionVector!, element, probe)),
        columns: indexes.columns,
        graph: indexes.graph,
        budget,
        crush: options.crush ?? {},
      });
      return picked.map((column) => options.columns[column]!);
    },
  };
}

/**
 * CRUSH ranking from vectors: selects collectively over the probes (one per hallucinated element, already joined with
 * the question: `crushProbeText` or `crushProbeVector`), and falls back to the question-only ranking beyond C(x).
 * With no probes it is the question ranking.
 */
export function rankCollectively(input: {
  questionVector: Vector;
  probeVectors: readonly Vector[];
  columns: ColumnSimilarityIndex;
  graph: SchemaGraph;
  budget: number;
  crush: CrushSelectionOptions;
}): number[] {
  const questionRanking = input.columns.rank(input.questionVector);
  if (input.probeVectors.length === 0) return questionRanking.slice(0, input.budget);
  return selectColumnsCollectively(
    {
      probeVectors: input.probeVectors,
      columns: input.columns,
      graph: input.graph,
      budget: input.budget,
      fallbackRanking: questionRanking,
    },
    input.crush,
  );
}
