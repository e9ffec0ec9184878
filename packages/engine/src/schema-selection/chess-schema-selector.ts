import { type Catalog, countColumns, tableKey } from "../catalog/catalog-types";
import type { SchemaSelectionSteps } from "../config/schema-selection-steps";
import type { SchemaSelector, SelectedSchema } from "../pipeline/schema-selector";
import { createRetriever, type RetrieverOptions } from "../retrieval/retrieve";
import { schemaNameWords, valuesWorthShowing } from "../retrieval/values/question-phrase-match";
import { columnKey } from "../retrieval/values/value-column";
import type { ValueVisibility } from "../retrieval/values/visible-values";
import { filterColumns, selectColumns, selectTables } from "./chess-steps";
import { addBridgeTables, restrictCatalog, selectWholeTables } from "./column-selection";
import { addVisibleStoredSamples, type StoredSampleValues } from "./stored-sample-values";

export interface ChessSchemaSelectorOptions
  extends Pick<
    RetrieverOptions,
    | "valueIndex"
    | "liveValues"
    | "liveValueColumns"
    | "valueEmbeddingModel"
    | "valueEmbeddingThresholds"
    | "contextRetrieval"
    | "contextIndex"
    | "rankColumns"
  > {
  /** Which steps run. Default: the question's `settings.schemaSelection` (`NLQ_SCHEMA_SELECTION`, `balanced`: all). */
  readonly steps?: SchemaSelectionSteps;
  /** Columns per `filter-column` call. Default 40. */
  readonly filterBatchSize?: number;
  /**
   * Most `filter-column` calls per question, running at once up to the preset's concurrency (the question's call
   * budget, `NLQ_MAX_LLM_CALLS`, is shared with generation and fixing); larger schemas get larger batches. Default 1:
   * the narrowed schema (CRUSH's budget and the other retrieval's tables, about 100–200 columns on the warehouse) goes
   * to one call, so the step costs one call and one round (three calls cost `balanced` 10 per question on the
   * warehouse, against the 8 asked for).
   */
  readonly maxFilterCalls?: number;
  /** Catalogs with at most this many columns are passed through whole, without any call. Default 0 (always select). */
  readonly minimumColumns?: number;
  /** CRUSH (`createCrushPreselector`), the retrieval stage's collective retrieval for large catalogs. Default none. */
  readonly preselect?: RetrieverOptions["crush"];
  /**
   * Above this many columns the catalog is narrowed to the tables of the retrieved columns (values, descriptions,
   * CRUSH, learnt ranking; whole tables) before the model steps. Default 300.
   */
  readonly preselectAboveColumns?: number;
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
 * The CHESS schema selector as a `SchemaSelector` for `answerQuestion`. It first runs the retrieval stage
 * (`createRetriever`, retrieval/retrieve.ts: keywords → values → descriptions → CRUSH for large catalogs) and consumes
 * its result: retrieved values annotate their columns, large catalogs are narrowed to the retrieved columns' tables,
 * then filter_column and select_tables (at once, over the same narrowed schema) → select_columns. Primary-key columns of the chosen tables and foreign-key columns
 * joining them are always kept; retrieved values become the columns' `-- examples` and a hint line. A step whose
 * model chooses nothing that exists leaves the schema as it was (never an empty schema).
 */
export function createChessSchemaSelector(options: ChessSchemaSelectorOptions = {}): SchemaSelector {
  const valuesPerColumn = options.valuesPerColumn ?? 3;
  const largeCatalogColumns = options.preselectAboveColumns ?? 300;
  const retrieval: RetrieverOptions = {
    valueIndex: options.valueIndex,
    liveValues: options.liveValues,
    liveValueColumns: options.liveValueColumns,
    valueEmbeddingModel: options.valueEmbeddingModel,
    valueEmbeddingThresholds: options.valueEmbeddingThresholds,
    valueVisibility: options.valueVisibility,
    contextRetrieval: options.contextRetrieval,
    contextIndex: options.contextIndex,
    crush: options.preselect,
    rankColumns: options.rankColumns,
    largeCatalogColumns,
  };
  return {
    name: "chess-schema-selector",
    async select({ catalog, context }): Promise<SelectedSchema> {
      const steps = options.steps ?? context.settings.schemaSelection;
      if (countColumns(catalog) <= (options.minimumColumns ?? 0)) return { catalog };
      const retrieved = await createRetriever({
        ...retrieval,
        extractKeywordsWithModel: steps.extractKeywords,
      }).retrieve({ catalog, context });

      // Only values that match a phrase of the question well enough reach a prompt (hint, examples) or narrow the
      // schema, each once; retrieval's wider net still fed the learnt ranking's own value votes.
      const shownMatches = valuesWorthShowing(context.question, retrieved.values, {
        schemaWords: schemaNameWords(
          catalog.tables.flatMap((table) => [table.name, ...table.columns.map((column) => column.name)]),
        ),
      });
      const retrievedValues = new Map<string, string[]>();
      for (const match of shownMatches) {
        const key = columnKey(match.source);
        const values = retrievedValues.get(key) ?? [];
        if (values.length < valuesPerColumn && !values.includes(match.value)) values.push(match.value);
        retrievedValues.set(key, values);
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
      if (countColumns(annotated) > largeCatalogColumns) {
        const narrowed = new Map<string, Set<string>>();
        for (const [table, columns] of retrieved.crush ?? [])
          for (const column of columns) addColumn(narrowed, table, column);
        for (const ranked of retrieved.ranked) addColumn(narrowed, ranked.table, ranked.column);
        for (const match of shownMatches) addColumn(narrowed, match.table, match.column);
        for (const hit of retrieved.context) {
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

      // filter_column and select_tables read the same narrowed schema at once (one model round, not two): the tables
      // select_tables chose keep the columns filter_column kept.
      const filtering = steps.filterColumn
        ? (() => {
            const calls = Math.max(1, options.maxFilterCalls ?? 1);
            const batchSize = Math.max(options.filterBatchSize ?? 40, Math.ceil(countColumns(working) / calls));
            return filterColumns({ catalog: working, context, batchSize, concurrency: calls });
          })()
        : undefined;
      const choosingTables = steps.selectTables ? selectTables({ catalog: working, context }) : undefined;
      const [kept, tables] = await Promise.all([filtering, choosingTables]);
      if (kept) working = nonEmpty(restrictCatalog(working, kept), working);
      if (tables) working = nonEmpty(restrictCatalog(working, selectWholeTables(working, tables)), working);
      if (steps.selectColumns) {
        const chosen = await selectColumns({ catalog: working, context });
        const nonEmptyChoice = new Map([...chosen].filter(([, columns]) => columns.size > 0));
        if (nonEmptyChoice.size > 0)
          working = nonEmpty(restrictCatalog(working, addBridgeTables(working, nonEmptyChoice)), working);
      }

      const shownTables = new Set(working.tables.map(tableKey));
      const shownValues = shownMatches.filter((match) => shownTables.has(match.table));
      const hint =
        shownValues.length > 0
          ? `Values stored in the database that match the question: ${shownValues
              .slice(0, 20)
              .map((match) => `${match.table}.${match.column} = '${match.value.replaceAll("'", "''")}'`)
              .join("; ")}.`
          : undefined;
      return { catalog: working, hint, keywords: retrieved.keywords };
    },
  };
}
