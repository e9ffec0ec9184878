import {
  createIndexedSchemaSelector,
  embedCatalogContext,
  type IndexedSelectorRankers,
  resolvePipelineEmbeddingModel,
} from "@nlq/adapters";
import {
  type Catalog,
  ConfigurationError,
  countColumns,
  createEmbeddedVectorStore,
  createStepContext,
  heuristicKeywords,
  type PipelineEvent,
  type SchemaColumn,
  type SchemaSelector,
  type Settings,
  tableKey,
} from "@nlq/engine";
import { createScriptedSelectionModel } from "../prompt-size/scripted-selection-model";
import type { RetrievalQuestion } from "../retrieval/retrieval-benchmark-data";
import { median } from "../statistics";
import { catalogFromRetrievalCorpus } from "./retrieval-corpus-catalog";

/**
 * Where the narrowing's CRUSH step gets its hallucinated schema from (the scripted `hallucinate-schema` answer):
 * - `question-only`: CRUSH off (`crush: false`, as the `fast` preset runs): learnt ranking and descriptions only;
 * - `crush-no-hallucination`: CRUSH on, the hallucination answers no table, so CRUSH ranks by the question alone;
 * - `crush-recorded`: CRUSH on, the question's recorded hallucination (`hallucinated` in the data file): the honest
 *   figure, no gold involved;
 * - `crush-gold`: CRUSH on, the gold columns written as a hallucination: an upper bound, not a live figure.
 */
export type HallucinationVariant = "question-only" | "crush-no-hallucination" | "crush-recorded" | "crush-gold";

export const hallucinationVariants: readonly HallucinationVariant[] = [
  "question-only",
  "crush-no-hallucination",
  "crush-recorded",
  "crush-gold",
];

/**
 * How far the selector ran:
 * - `offered`: only the narrowing (the preselection offered to the selection steps); no step after extract_keywords;
 * - `keep-all`: filter_column / select_tables / select_columns answered by a rule that keeps everything offered;
 * - `gold-steps`: the same steps answered with the gold tables and columns (upper bound).
 */
export type SelectionStage = "offered" | "keep-all" | "gold-steps";

export const selectionStages: readonly SelectionStage[] = ["offered", "keep-all", "gold-steps"];

export interface StageMeasurement {
  readonly tables: number;
  readonly columns: number;
  /** Gold columns (`db.table.column`, lower case) present in the schema the stage ends with. */
  readonly goldKept: readonly string[];
  /** Scripted model calls the selector made. */
  readonly calls: number;
}

export interface VariantMeasurement {
  /** What the live CRUSH preselector received (its `crush-end` event); absent when CRUSH did not run. */
  readonly hallucinated?: readonly string[];
  /** Columns CRUSH picked (`crush-end`). */
  readonly crushColumns?: number;
  /** Why CRUSH fell back to no picks (e.g. a hallucination the output schema rejects). */
  readonly crushFallbackReason?: string;
  readonly stages: Readonly<Record<SelectionStage, StageMeasurement>>;
}

export interface SchemaSelectionQuestionResult {
  readonly id: string;
  readonly question: string;
  /** Gold columns, `db.table.column`, lower case. */
  readonly gold: readonly string[];
  /** Gold columns the corpus does not contain (counted as gold, never kept). */
  readonly goldMissingFromCorpus: number;
  readonly variants: Partial<Record<HallucinationVariant, VariantMeasurement>>;
}

export interface SchemaSelectionSummary {
  readonly questions: number;
  /** Mean over questions of kept gold / gold. */
  readonly meanRecall: number;
  /** Kept gold columns / gold columns, over all questions. */
  readonly pooledRecall: number;
  /** Share of questions with every gold column kept. */
  readonly allGoldKept: number;
  readonly meanTables: number;
  readonly meanColumns: number;
  /** Median columns (a step whose answer names nothing offered keeps the whole offer, which lifts the mean). */
  readonly medianColumns: number;
  readonly maxCalls: number;
}

export interface SchemaSelectionBenchmarkResult {
  readonly tables: number;
  readonly columns: number;
  readonly settings: {
    readonly preset: string;
    readonly minimumColumns: number;
    readonly learnedRetrieval: boolean;
    readonly crush: boolean;
    readonly steps: Settings["schemaSelection"];
    readonly maxLlmCalls: number;
  };
  readonly variants: readonly HallucinationVariant[];
  readonly withEvidence: boolean;
  readonly questions: readonly SchemaSelectionQuestionResult[];
  readonly summary: Partial<Record<HallucinationVariant, Record<SelectionStage, SchemaSelectionSummary>>>;
  readonly milliseconds: number;
}

export interface SchemaSelectionBenchmarkOptions {
  readonly corpus: readonly SchemaColumn[];
  readonly questions: readonly RetrievalQuestion[];
  /** The question's settings, as the pipeline loads them. Default `loadSettings({})` by the caller (balanced preset). */
  readonly settings: Settings;
  /** Default: all four. */
  readonly variants?: readonly HallucinationVariant[];
  /** Pass the BIRD evidence as the question's hint. Default false (question only). */
  readonly withEvidence?: boolean;
  /** CRUSH's budget (B). Default: the live path's (`defaultCrushBudget`). */
  readonly crushBudget?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Gold keys as the catalog spells them: `schema.table` → columns. */
function goldSelection(catalog: Catalog, gold: readonly string[]): Map<string, string[]> {
  const wanted = new Set(gold);
  const selection = new Map<string, string[]>();
  for (const table of catalog.tables)
    for (const column of table.columns)
      if (wanted.has(columnKeyOf(table, column.name))) {
        const columns = selection.get(tableKey(table)) ?? [];
        columns.push(column.name);
        selection.set(tableKey(table), columns);
      }
  return selection;
}

function columnKeyOf(table: { readonly schema: string; readonly name: string }, column: string): string {
  return `${table.schema}.${table.name}.${column}`.toLowerCase();
}

/** Gold columns present in `catalog` (keys compared lower-cased). */
export function goldColumnsKept(catalog: Catalog, gold: readonly string[]): string[] {
  const shown = new Set(
    catalog.tables.flatMap((table) => table.columns.map((column) => columnKeyOf(table, column.name))),
  );
  return gold.filter((key) => shown.has(key.toLowerCase()));
}

/**
 * The gold columns as a hallucination (`Table(col, col)`): characters the hallucination format cannot hold in a name
 * (parentheses, commas) become spaces.
 */
export function goldAsHallucinatedSchema(gold: ReadonlyMap<string, readonly string[]>): string[] {
  const clean = (name: string) => name.replace(/[(),]/g, " ").replace(/\s+/g, " ").trim();
  return [...gold].map(([table, columns]) => `${clean(table.split(".").at(-1)!)}(${columns.map(clean).join(", ")})`);
}

function summarize(questions: readonly SchemaSelectionQuestionResult[], variant: HallucinationVariant) {
  const result = {} as Record<SelectionStage, SchemaSelectionSummary>;
  for (const stage of selectionStages) {
    const rows = questions.flatMap((question) => {
      const measured = question.variants[variant]?.stages[stage];
      return measured ? [{ gold: question.gold.length, measured }] : [];
    });
    const count = rows.length;
    const mean = (value: (row: (typeof rows)[number]) => number) =>
      count === 0 ? 0 : rows.reduce((sum, row) => sum + value(row), 0) / count;
    const goldTotal = rows.reduce((sum, row) => sum + row.gold, 0);
    result[stage] = {
      questions: count,
      meanRecall: mean((row) => (row.gold === 0 ? 1 : row.measured.goldKept.length / row.gold)),
      pooledRecall: goldTotal === 0 ? 1 : rows.reduce((sum, row) => sum + row.measured.goldKept.length, 0) / goldTotal,
      allGoldKept: mean((row) => (row.measured.goldKept.length === row.gold ? 1 : 0)),
      meanTables: mean((row) => row.measured.tables),
      meanColumns: mean((row) => row.measured.columns),
      medianColumns: count === 0 ? 0 : median(rows.map((row) => row.measured.columns)),
      maxCalls: Math.max(0, ...rows.map((row) => row.measured.calls)),
    };
  }
  return result;
}

/**
 * "Gold columns kept" by the LIVE schema selection on a CRUSH4SQL-format benchmark (BirdUnion): the selector an
 * indexed question gets (`createIndexedSchemaSelector`, production settings: narrowing above the threshold by CRUSH,
 * the learnt ranking and the description vectors `nlq index` writes, then the CHESS steps) over an in-memory catalog of
 * the corpus. No language model is involved: a scripted model answers every step — `extract-keywords` with the
 * heuristic extractor's keywords, `hallucinate-schema` per `HallucinationVariant`, and the selection steps per
 * `SelectionStage`. Gold is used only to count, and in the labelled upper bounds (`crush-gold`, `gold-steps`).
 */
export async function runSchemaSelectionBenchmark(
  options: SchemaSelectionBenchmarkOptions,
): Promise<SchemaSelectionBenchmarkResult> {
  const started = performance.now();
  const settings = options.settings;
  const catalog = catalogFromRetrievalCorpus(options.corpus);
  const minimumColumns = settings.schemaSelectionMinimumColumns;
  if (countColumns(catalog) <= minimumColumns)
    throw new ConfigurationError(
      `the corpus has ${countColumns(catalog)} columns, not above the schema-selection threshold (${minimumColumns}): the live path would not select`,
    );
  const variants = options.variants ?? hallucinationVariants;
  const withEvidence = options.withEvidence ?? false;

  // The description vectors `nlq index` would write, in an in-process embedded vector store.
  const vectorStore = createEmbeddedVectorStore();
  const collection = "nlq_catalog_schema_selection_benchmark";
  const embeddingModel = resolvePipelineEmbeddingModel(settings);
  await embedCatalogContext(vectorStore, embeddingModel, collection, catalog);

  const rankers: IndexedSelectorRankers = {};
  const selectors = new Map<string, SchemaSelector>();
  const selectorFor = async (crush: boolean, stage: SelectionStage) => {
    const key = `${crush}/${stage}`;
    let selector = selectors.get(key);
    if (!selector) {
      selector = await createIndexedSchemaSelector({
        catalog,
        settings,
        rankers,
        crush,
        ...(options.crushBudget === undefined ? {} : { crushBudget: options.crushBudget }),
        contextVectors: { vectorStore, collection },
        embeddingModel,
        // `offered` stops after the narrowing: the selection steps are switched off, nothing else changes.
        ...(stage === "offered"
          ? { steps: { ...settings.schemaSelection, filterColumn: false, selectTables: false, selectColumns: false } }
          : {}),
      });
      selectors.set(key, selector);
    }
    return selector;
  };

  const allTables = catalog.tables.map(tableKey);
  const allColumns = catalog.tables.map((table) => ({
    table: tableKey(table),
    columns: table.columns.map((column) => column.name),
  }));
  const results: SchemaSelectionQuestionResult[] = [];
  try {
    for (const [position, question] of options.questions.entries()) {
      const gold = goldSelection(catalog, question.gold);
      const goldKeys = new Set([...gold].flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`)));
      const hint = withEvidence && question.evidence !== "" ? question.evidence : undefined;
      const measured: Partial<Record<HallucinationVariant, VariantMeasurement>> = {};
      for (const variant of variants) {
        const hallucination =
          variant === "crush-recorded"
            ? question.hallucinated
            : variant === "crush-gold"
              ? goldAsHallucinatedSchema(gold)
              : [];
        const stages = {} as Record<SelectionStage, StageMeasurement>;
        let crushEnd: Extract<PipelineEvent, { type: "crush-end" }> | undefined;
        for (const stage of selectionStages) {
          const scripted = createScriptedSelectionModel((step) => {
            switch (step) {
              case "extract-keywords":
                return { keywords: heuristicKeywords([question.question, hint ?? ""].join(" ")) };
              case "hallucinate-schema":
                return { tables: hallucination };
              case "filter-column":
                // keep-all: nothing labelled irrelevant (an unlabelled column is kept); gold: every non-gold column irrelevant.
                return {
                  columns:
                    stage === "gold-steps"
                      ? allColumns.flatMap(({ table, columns }) =>
                          columns.map((column) => ({
                            column: `${table}.${column}`,
                            relevant: goldKeys.has(`${table}.${column}`),
                          })),
                        )
                      : [],
                };
              case "select-tables":
                return { table_names: stage === "gold-steps" ? [...gold.keys()] : allTables };
              case "select-columns":
                return {
                  tables:
                    stage === "gold-steps"
                      ? [...gold].map(([table, columns]) => ({ table, columns }))
                      : allColumns.map(({ table, columns }) => ({ table, columns })),
                };
              default:
                throw new Error(`the schema-selection benchmark has no scripted answer for step ${step}`);
            }
          }, `rule-${variant}-${stage}`);
          const context = createStepContext({
            question: question.question,
            ...(hint === undefined ? {} : { hint }),
            settings,
            resolveModel: scripted.resolveModel,
            onEvent: (event) => {
              if (event.type === "crush-end") crushEnd = event;
            },
          });
          const selector = await selectorFor(variant !== "question-only", stage);
          const selected = await selector.select({ catalog, context });
          stages[stage] = {
            tables: selected.catalog.tables.length,
            columns: countColumns(selected.catalog),
            goldKept: goldColumnsKept(selected.catalog, question.gold),
            calls: context.calls.length,
          };
        }
        measured[variant] = {
          ...(crushEnd
            ? {
                hallucinated: crushEnd.hallucinated,
                crushColumns: crushEnd.columns,
                ...(crushEnd.fallbackReason ? { crushFallbackReason: crushEnd.fallbackReason } : {}),
              }
            : {}),
          stages,
        };
      }
      results.push({
        id: question.id,
        question: question.question,
        gold: question.gold,
        goldMissingFromCorpus: question.gold.length - goldKeys.size,
        variants: measured,
      });
      options.onProgress?.(position + 1, options.questions.length);
    }
  } finally {
    await vectorStore.close();
  }
  return {
    tables: catalog.tables.length,
    columns: countColumns(catalog),
    settings: {
      preset: settings.preset.name,
      minimumColumns,
      learnedRetrieval: settings.learnedRetrieval,
      crush: settings.crush,
      steps: settings.schemaSelection,
      maxLlmCalls: settings.maxLlmCalls,
    },
    variants,
    withEvidence,
    questions: results,
    summary: Object.fromEntries(variants.map((variant) => [variant, summarize(results, variant)])),
    milliseconds: performance.now() - started,
  };
}
