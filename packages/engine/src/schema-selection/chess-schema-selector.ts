import type { EmbeddingModel } from "ai";
import { type Catalog, countColumns, tableKey } from "../catalog/catalog-types";
import { ModelCallError, ModelOutputError } from "../errors";
import type { SchemaSelector, SelectedSchema, SelectSchemaOptions } from "../pipeline/schema-selector";
import type { CatalogContextIndex } from "../retrieval/context/catalog-context-index";
import { type ContextHit, retrieveContext } from "../retrieval/context/retrieve-context";
import { extractKeywords } from "../retrieval/keywords/extract-keywords";
import { heuristicKeywords } from "../retrieval/keywords/heuristic-keywords";
import { retrieveEntities } from "../retrieval/values/retrieve-entities";
import { columnKey } from "../retrieval/values/value-column";
import type { ValueIndex } from "../retrieval/values/value-index";
import type { ValueVisibility } from "../retrieval/values/visible-values";
import type { VectorStore } from "../vector-store/vector-store";
import { filterColumns, selectColumns, selectTables } from "./chess-steps";
import { addBridgeTables, restrictCatalog, selectWholeTables, type TableColumnSelection } from "./column-selection";
import type { SchemaSelectionSteps } from "./schema-selection-steps";
import { addVisibleStoredSamples, type StoredSampleValues } from "./stored-sample-values";

/** Narrows a large catalog before the model steps (e.g. CRUSH, `createCrushPreselector`). */
export type SchemaPreselector = (options: {
  readonly catalog: Catalog;
  readonly keywords: readonly string[];
  readonly context: SelectSchemaOptions["context"];
}) => Promise<TableColumnSelection>;

export interface ChessSchemaSelectorOptions {
  /** Which steps run. Default: the question's `settings.schemaSelection` (`NLQ_SCHEMA_SELECTION`, `balanced`: all). */
  readonly steps?: SchemaSelectionSteps;
  /** Columns per `filter-column` call. Default 40. */
  readonly filterBatchSize?: number;
  /**
   * Most `filter-column` calls per question (the question's call budget, `NLQ_MAX_LLM_CALLS`, is shared with
   * generation and fixing); larger schemas get larger batches. Default 6.
   */
  readonly maxFilterCalls?: number;
  /** Catalogs with at most this many columns are passed through whole, without any call. Default 0 (always select). */
  readonly minimumColumns?: number;
  /** Value index of the data source (CHESS retrieve_entity). Default none. */
  readonly valueIndex?: ValueIndex;
  /** Description vectors of the data source (CHESS retrieve_context). Default none. */
  readonly contextRetrieval?: {
    readonly vectorStore: VectorStore;
    readonly collection: string;
    readonly embeddingModel: EmbeddingModel;
    /** Hits per probe. Default 5. */
    readonly limitPerProbe?: number;
  };
  /** In-process description index (`createCatalogContextIndex`), used instead of `contextRetrieval` when given. */
  readonly contextIndex?: CatalogContextIndex;
  /** Narrowing of large catalogs before the model steps (CRUSH). Default: only retrieved values and context. */
  readonly preselect?: SchemaPreselector;
  /**
   * Above this many columns the catalog is narrowed to the tables of the preselected, value-matched and
   * context-retrieved columns (whole tables) before the model steps. Default 300.
   */
  readonly preselectAboveColumns?: number;
  /**
   * Question-only column ranking over the whole catalog (the learnt retriever, `createLearnedColumnPreselection`): its
   * columns join the narrowing of large catalogs beside values and context hits. Default none.
   */
  readonly rankColumns?: (question: string) => readonly { readonly table: string; readonly column: string }[];
  /** Retrieved values shown per column. Default 3. */
  readonly valuesPerColumn?: number;
  /**
   * Checks values under the asking role (`createValueVisibility` on its session): value-index hits it cannot see in a
   * row, and `storedSampleValues` likewise, never reach a prompt, an event or the hint. Needed whenever the value index
   * or the examples were read by another role (`nlq index`). Default none: hits of readable columns are used as found.
   */
  readonly valueVisibility?: ValueVisibility;
  /**
   * Examples stored by `nlq index` (`storedSampleValuesOf` the unrestricted indexed catalog), added, once
   * `valueVisibility` confirmed them, to the columns of the tables that reach the model steps. Ignored without
   * `valueVisibility`. Default none.
   */
  readonly storedSampleValues?: StoredSampleValues;
  /** Stored examples are checked for this many tables of the working schema at most. Default 100. */
  readonly maxSampleTables?: number;
}

function addColumn(selection: Map<string, Set<string>>, table: string, column: string): void {
  const columns = selection.get(table) ?? new Set<string>();
  columns.add(column);
  selection.set(table, columns);
}

function nonEmpty(catalog: Catalog, fallback: Catalog): Catalog {
  return catalog.tables.length > 0 ? catalog : fallback;
}

/**
 * CHESS extract_keywords by the model when the step is on; `heuristicKeywords` when it is off, and also when the
 * model call fails (e.g. a scripted fixture without an `extract-keywords` response): keywords only steer retrieval, so
 * a failed keyword call must not fail the question. The `keywords-end` event says which (`source`, `fallbackReason`).
 */
async function keywordsOf(context: SelectSchemaOptions["context"], useModel: boolean): Promise<string[]> {
  let fallbackReason: string | undefined;
  if (useModel) {
    try {
      return await extractKeywords({ context });
    } catch (error) {
      if (!(error instanceof ModelCallError || error instanceof ModelOutputError)) throw error;
      fallbackReason = error.message;
    }
  }
  const keywords = heuristicKeywords([context.question, context.hint ?? ""].join(" "));
  context.emit({ type: "keywords-end", keywords, source: "heuristic", ...(fallbackReason ? { fallbackReason } : {}) });
  return keywords;
}

/**
 * The CHESS information retriever + schema selector as a `SchemaSelector` for `answerQuestion`: keywords →
 * retrieved values (value index) and descriptions (vector store) → optional preselection for large catalogs →
 * filter_column → select_tables → select_columns. Primary-key columns of the chosen tables and foreign-key columns
 * joining them are always kept; retrieved values become the columns' `-- examples` and a hint line. A step whose
 * model chooses nothing that exists leaves the schema as it was (never an empty schema).
 */
export function createChessSchemaSelector(options: ChessSchemaSelectorOptions = {}): SchemaSelector {
  const valuesPerColumn = options.valuesPerColumn ?? 3;
  return {
    name: "chess-schema-selector",
    async select({ catalog, context }): Promise<SelectedSchema> {
      const steps = options.steps ?? context.settings.schemaSelection;
      if (countColumns(catalog) <= (options.minimumColumns ?? 0)) return { catalog };
      const keywords = await keywordsOf(context, steps.extractKeywords);
      context.throwIfCancelled();

      const retrievedValues = new Map<string, string[]>();
      const valueLines: Array<{ keyword: string; table: string; column: string; value: string }> = [];
      if (options.valueIndex && keywords.length > 0) {
        const readable = new Set(
          catalog.tables.flatMap((table) =>
            table.columns.map((column) => columnKey({ schema: table.schema, table: table.name, column: column.name })),
          ),
        );
        const entities = await retrieveEntities({
          index: options.valueIndex,
          keywords,
          readableColumns: readable,
          visibility: options.valueVisibility,
          abortSignal: context.abortSignal,
        });
        for (const entity of entities) {
          for (const match of entity.matches) {
            const key = columnKey(match.column);
            const values = retrievedValues.get(key) ?? [];
            if (values.length < valuesPerColumn && !values.includes(match.value)) values.push(match.value);
            retrievedValues.set(key, values);
            valueLines.push({
              keyword: entity.keyword,
              table: `${match.column.schema}.${match.column.table}`,
              column: match.column.column,
              value: match.value,
            });
          }
        }
        context.emit({ type: "values-end", values: valueLines });
      }
      let hits: ContextHit[] = [];
      if (options.contextIndex) {
        const readableTables = new Set(catalog.tables.map(tableKey));
        hits = (await options.contextIndex.retrieve({ question: context.question, keywords })).filter((hit) =>
          readableTables.has(hit.table),
        );
      } else if (options.contextRetrieval) {
        hits = await retrieveContext({
          ...options.contextRetrieval,
          question: context.question,
          keywords,
          readableTables: new Set(catalog.tables.map(tableKey)),
          abortSignal: context.abortSignal,
        });
      }

      const annotated: Catalog = {
        ...catalog,
        tables: catalog.tables.map((table) => ({
          ...table,
          columns: table.columns.map((column) => {
            const values = retrievedValues.get(
              columnKey({ schema: table.schema, table: table.name, column: column.name }),
            );
            if (!values) return column;
            const merged = [...values, ...(column.sampleValues ?? []).filter((value) => !values.includes(value))];
            return { ...column, sampleValues: merged.slice(0, Math.max(valuesPerColumn, values.length)) };
          }),
        })),
      };

      let working = annotated;
      if (countColumns(annotated) > (options.preselectAboveColumns ?? 300)) {
        const narrowed = new Map<string, Set<string>>();
        if (options.preselect) {
          for (const [table, columns] of await options.preselect({ catalog: annotated, keywords, context }))
            for (const column of columns) addColumn(narrowed, table, column);
        }
        if (options.rankColumns) {
          const readableTables = new Set(annotated.tables.map(tableKey));
          for (const ranked of options.rankColumns(context.question))
            if (readableTables.has(ranked.table)) addColumn(narrowed, ranked.table, ranked.column);
        }
        for (const line of valueLines) addColumn(narrowed, line.table, line.column);
        for (const hit of hits) {
          if (hit.column !== undefined) addColumn(narrowed, hit.table, hit.column);
          else
            for (const [table, columns] of selectWholeTables(annotated, [hit.table]))
              for (const column of columns) addColumn(narrowed, table, column);
        }
        if (narrowed.size > 0) working = restrictCatalog(annotated, selectWholeTables(annotated, narrowed.keys()));
      }
      if (options.valueVisibility && options.storedSampleValues && options.storedSampleValues.size > 0) {
        working = await addVisibleStoredSamples({
          catalog: working,
          stored: options.storedSampleValues,
          visibility: options.valueVisibility,
          valuesPerColumn,
          maxTables: options.maxSampleTables ?? 100,
          abortSignal: context.abortSignal,
        });
      }
      context.throwIfCancelled();

      if (steps.filterColumn) {
        const batchSize = Math.max(
          options.filterBatchSize ?? 40,
          Math.ceil(countColumns(working) / Math.max(1, options.maxFilterCalls ?? 6)),
        );
        const kept = await filterColumns({ catalog: working, context, batchSize });
        working = nonEmpty(restrictCatalog(working, kept), working);
      }
      if (steps.selectTables) {
        const tables = await selectTables({ catalog: working, context });
        working = nonEmpty(restrictCatalog(working, selectWholeTables(working, tables)), working);
      }
      if (steps.selectColumns) {
        const chosen = await selectColumns({ catalog: working, context });
        const nonEmptyChoice = new Map([...chosen].filter(([, columns]) => columns.size > 0));
        if (nonEmptyChoice.size > 0)
          working = nonEmpty(restrictCatalog(working, addBridgeTables(working, nonEmptyChoice)), working);
      }

      const shownTables = new Set(working.tables.map(tableKey));
      const shownValues = valueLines.filter((line) => shownTables.has(line.table));
      const hint =
        shownValues.length > 0
          ? `Values stored in the database that match the question: ${shownValues
              .slice(0, 20)
              .map((line) => `${line.table}.${line.column} = '${line.value.replaceAll("'", "''")}'`)
              .join("; ")}.`
          : undefined;
      return { catalog: working, hint };
    },
  };
}
