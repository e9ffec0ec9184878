import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  createMetadataVectorPersistence,
  createPgExecutor,
  createVectorStore,
  ensureDataSource,
  loadCatalog,
  openMetadataStore,
  parseCsvRecords,
  resolvePipelineEmbeddingModel,
  ValueIndexStore,
} from "@nlq/adapters";
import {
  type Catalog,
  catalogCollectionName,
  countColumns,
  createCatalogContextIndex,
  createCatalogSchemaRetriever,
  createChessSchemaSelector,
  createCrushPreselector,
  createStepContext,
  DEFAULT_LSH_PARAMETERS,
  heuristicKeywords,
  loadSettings,
  renderSchema,
  retrieveContext,
  retrieveEntities,
  tableKey,
} from "@nlq/engine";
import { generateCandidatePrompt, generateCandidateSystemPrompt } from "@nlq/prompts";
import pg from "pg";

import { extractGoldSchema, type GoldSchema, goldAsHallucination } from "./gold-columns";
import { createScriptedSelectionModel } from "./scripted-selection-model";

/** Token count approximation: no tokenizer package is installed, so tokens ≈ characters / 4 (OpenAI's rule of thumb). */
function approximateTokens(text: string): number {
  return tokensForCharacters(text.length);
}

const tokensForCharacters = (characters: number) => Math.ceil(characters / 4);

export interface PromptSizeBenchmarkOptions {
  /** The loaded Spider warehouse (`bench/spider-warehouse`), already indexed with `nlq index`. */
  readonly url: string;
  /** PGlite directory of the metadata store `nlq index` wrote. Default: `NLQ_METADATA_URL`, else `.nlq/metadata`. */
  readonly metadataDirectory?: string;
  /** `train_queries.csv`. Default `../shared/data/spider-warehouse/train_queries.csv`. */
  readonly questionsFile?: string;
  /** Questions measured (every n-th of the file, deterministic). Default 200. */
  readonly questions?: number;
  /** CRUSH budget (columns) of the preselection. Default 40. */
  readonly crushBudget?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface QuestionMeasurement {
  readonly question: string;
  readonly fullPromptTokens: number;
  readonly selectedPromptTokens: number;
  /** Largest prompt sent to one selection step (select-tables / select-columns). */
  readonly largestSelectionPromptTokens: number;
  readonly goldColumns: number;
  /** Gold columns present in the selected schema (the preselection can miss a gold table). */
  readonly goldColumnsKept: number;
  /** Keywords → value index + in-process description search + CRUSH (the selector's non-LLM path). */
  readonly retrievalMilliseconds: number;
  /** retrieve_context through the configured vector store instead (embedded store: exact dense scan per probe). */
  readonly vectorStoreContextMilliseconds: number;
  readonly selectedTables: number;
  readonly selectedColumns: number;
}

export interface PromptSizeBenchmarkResult {
  readonly tables: number;
  readonly columns: number;
  readonly fullPromptTokens: number;
  readonly measurements: readonly QuestionMeasurement[];
  readonly setupMilliseconds: number;
}

function generationPrompt(catalog: Catalog, question: string, hint?: string): string {
  return `${generateCandidateSystemPrompt}\n${generateCandidatePrompt({ schema: renderSchema(catalog), question, hint })}`;
}

async function readQuestions(file: string, count: number) {
  const [, ...rows] = parseCsvRecords(await readFile(file, "utf8"));
  const step = Math.max(1, Math.floor(rows.length / count));
  return rows
    .filter((_, index) => index % step === 0)
    .slice(0, count)
    .map(([database, question, sql]) => ({ database: database!, question: question!, sql: sql! }));
}

/**
 * Prompt size of generation with the whole warehouse schema vs after the CHESS selector (CRUSH preselection with the
 * gold schema as the scripted hallucination, value index + description vectors, select_tables/select_columns answered
 * by a scripted model from the gold SQL), and the latency of the non-LLM retrieval path per question.
 */
export async function runPromptSizeBenchmark(options: PromptSizeBenchmarkOptions): Promise<PromptSizeBenchmarkResult> {
  const setupStarted = performance.now();
  const store = await openMetadataStore({ directory: options.metadataDirectory });
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const vectorStore = createVectorStore({ persistence: createMetadataVectorPersistence(store.database) });
  try {
    const session = createPgExecutor(client, { name: "nlq-bench" });
    const dataSource = await ensureDataSource(store.database, { url: options.url });
    const loaded = await loadCatalog({ store, dataSource, session });
    if (loaded.source !== "index")
      throw new Error(`no catalog index for ${dataSource.name}: run nlq index --url ${options.url} first`);
    const catalog = loaded.catalog;
    const valueIndex = await new ValueIndexStore(store.database).loadIndex(dataSource.id, DEFAULT_LSH_PARAMETERS);
    const embeddingModel = resolvePipelineEmbeddingModel(loadSettings(process.env));
    const retriever = await createCatalogSchemaRetriever(catalog, embeddingModel);
    const contextIndex = await createCatalogContextIndex(catalog, embeddingModel);
    const collection = catalogCollectionName(dataSource.id);
    await vectorStore.count({ collection });
    const readableTables = new Set(catalog.tables.map(tableKey));
    const setupMilliseconds = performance.now() - setupStarted;
    const settings = loadSettings({});
    const questions = await readQuestions(
      options.questionsFile ?? path.resolve("../shared/data/spider-warehouse/train_queries.csv"),
      options.questions ?? 200,
    );
    const fullPromptTokens = approximateTokens(generationPrompt(catalog, questions[0]?.question ?? ""));
    const measurements: QuestionMeasurement[] = [];
    for (const [position, entry] of questions.entries()) {
      const gold: GoldSchema = extractGoldSchema(catalog, entry.database, entry.sql);
      if (gold.tables.length === 0) continue;
      const hallucinated = goldAsHallucination(gold);

      const retrievalStarted = performance.now();
      const keywords = heuristicKeywords(entry.question);
      await retrieveEntities({ index: valueIndex, keywords, readableColumns: "all" });
      await contextIndex.retrieve({ question: entry.question, keywords });
      await retriever.retrieveCollectively({
        question: entry.question,
        hallucinated,
        budget: options.crushBudget ?? 40,
      });
      const retrievalMilliseconds = performance.now() - retrievalStarted;
      const vectorStoreStarted = performance.now();
      await retrieveContext({
        vectorStore,
        collection,
        embeddingModel,
        question: entry.question,
        keywords,
        readableTables,
      });
      const vectorStoreContextMilliseconds = performance.now() - vectorStoreStarted;

      const scripted = createScriptedSelectionModel((step) =>
        step === "select-tables"
          ? { table_names: gold.tables }
          : step === "select-columns"
            ? { tables: gold.tables.map((table) => ({ table, columns: gold.columns.get(table) ?? [] })) }
            : { tables: hallucinated },
      );
      const selector = createChessSchemaSelector({
        steps: { extractKeywords: false, filterColumn: false, selectTables: true, selectColumns: true },
        valueIndex,
        contextIndex,
        preselect: createCrushPreselector({
          retriever,
          budget: options.crushBudget ?? 40,
          hallucinate: async () => hallucinated,
        }),
      });
      const context = createStepContext({ question: entry.question, settings, resolveModel: scripted.resolveModel });
      const selected = await selector.select({ catalog, context });
      const shown = new Set(
        selected.catalog.tables.flatMap((table) => table.columns.map((column) => `${tableKey(table)}.${column.name}`)),
      );
      const goldList = [...gold.columns].flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`));
      measurements.push({
        question: entry.question,
        fullPromptTokens,
        selectedPromptTokens: approximateTokens(generationPrompt(selected.catalog, entry.question, selected.hint)),
        largestSelectionPromptTokens: tokensForCharacters(Math.max(0, ...Object.values(scripted.promptCharacters))),
        goldColumns: goldList.length,
        goldColumnsKept: goldList.filter((column) => shown.has(column)).length,
        retrievalMilliseconds,
        vectorStoreContextMilliseconds,
        selectedTables: selected.catalog.tables.length,
        selectedColumns: countColumns(selected.catalog),
      });
      options.onProgress?.(position + 1, questions.length);
    }
    return {
      tables: catalog.tables.length,
      columns: countColumns(catalog),
      fullPromptTokens,
      measurements,
      setupMilliseconds,
    };
  } finally {
    await vectorStore.close();
    await client.end();
    await store.close();
  }
}
