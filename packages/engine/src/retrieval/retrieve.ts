import type { EmbeddingModel } from "ai";
import { type Catalog, countColumns, tableKey } from "../catalog/catalog-types";
import type { StepContext } from "../llm/step-context";
import type { VectorStore } from "../vector-store/vector-store";
import type { CatalogContextIndex } from "./context/catalog-context-index";
import { type ContextHit, retrieveContext } from "./context/retrieve-context";
import type { ColumnPicks, SchemaPreselector } from "./crush/crush-preselector";
import { questionKeywords } from "./keywords/question-keywords";
import type { LiveValueLookup } from "./values/live-value-lookup";
import { retrieveEntities } from "./values/retrieve-entities";
import { columnKey, type ValueColumn } from "./values/value-column";
import type { ValueSearch } from "./values/value-search";
import type { ValueVisibility } from "./values/visible-values";

/** A database value that matches a keyword (CHESS retrieve_entity); `table` as `schema.table`. */
export interface ValueMatch {
  readonly keyword: string;
  readonly table: string;
  readonly column: string;
  readonly value: string;
  /** The matched column itself (schema, table and column unquoted). */
  readonly source: ValueColumn;
  /** 1 − normalised edit distance between keyword and value (1 = exact, case-insensitive). */
  readonly editSimilarity?: number;
}

/** What retrieval found for one question, in the order it ran. Schema selection consumes it. */
export interface RetrievalResult {
  /** CHESS extract_keywords (model, or the heuristic fallback). */
  readonly keywords: readonly string[];
  /** CHESS retrieve_entity: value-index matches of readable, visible columns, best first per keyword. */
  readonly values: readonly ValueMatch[];
  /** CHESS retrieve_context: description hits of readable tables. */
  readonly context: readonly ContextHit[];
  /** CRUSH4SQL collective retrieval over the hallucinated schema; only for large catalogs. */
  readonly crush?: ColumnPicks;
  /** The learnt question-only ranking's columns (readable tables only); only for large catalogs. */
  readonly ranked: ReadonlyArray<{ readonly table: string; readonly column: string }>;
}

export interface RetrieverOptions {
  /** Extract keywords with the model (`extract-keywords`); otherwise the heuristic. Default true. */
  readonly extractKeywordsWithModel?: boolean;
  /** Value index of the data source (CHESS retrieve_entity). Default none. */
  readonly valueIndex?: ValueSearch;
  /**
   * The bounded live lookup on the asking session (`createLiveValueLookup`): over the whole catalog without
   * `valueIndex` (a data source whose value index is not built yet), else over `liveValueColumns` only. Default none.
   */
  readonly liveValues?: LiveValueLookup;
  /**
   * With both `valueIndex` and `liveValues`: the columns (`columnKey`s) the index does not hold whole (truncated at
   * its per-column cap), looked up live as well. Default none.
   */
  readonly liveValueColumns?: ReadonlySet<string>;
  /**
   * Embedding model of the value hits' semantic filter (CHESS retrieve_entity's embedding rerank): given only when one
   * is configured (`NLQ_EMBEDDING_MODEL`). Default none: edit distance alone.
   */
  readonly valueEmbeddingModel?: EmbeddingModel;
  /**
   * The embedding filter's thresholds (`retrieveEntities`' `minEmbeddingSimilarity`, `keepAboveEditSimilarity`), which
   * depend on the embedder. Default: CHESS's (0.6 and 0.8, for text-embedding-3-small).
   */
  readonly valueEmbeddingThresholds?: { readonly minimum: number; readonly keepAboveEditSimilarity: number };
  /**
   * Checks value-index hits under the asking role (`createValueVisibility`): hits it cannot see in a row are dropped
   * before anything else sees them. Default none: hits of readable columns are used as found.
   */
  readonly valueVisibility?: ValueVisibility;
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
  /** CRUSH (`createCrushPreselector`), run for large catalogs. Default none. */
  readonly crush?: SchemaPreselector;
  /**
   * The learnt question-only ranking (`createLearnedColumnPreselection`), run for large catalogs, given the value
   * matches found above (visible ones only) for its value-aware fusion. Default none.
   */
  readonly rankColumns?: (
    question: string,
    values?: readonly ValueMatch[],
  ) => readonly { readonly table: string; readonly column: string }[];
  /** Catalogs above this many columns are large: CRUSH and the learnt ranking run for them. Default 300. */
  readonly largeCatalogColumns?: number;
}

/** The retrieval stage of a question (CHESS IR, then CRUSH): one interface, so another retriever can replace it. */
export interface Retriever {
  readonly name: string;
  retrieve(options: { readonly catalog: Catalog; readonly context: StepContext }): Promise<RetrievalResult>;
}

/**
 * Retrieval in the papers' order: keywords → values (value index) → context (descriptions) → CRUSH (large catalogs),
 * plus the learnt ranking for large catalogs. Only readable tables and columns of `catalog` (already restricted to the
 * asking role) are ever returned.
 */
export function createRetriever(options: RetrieverOptions = {}): Retriever {
  return {
    name: "chess-crush-retriever",
    async retrieve({ catalog, context }) {
      const large = countColumns(catalog) > (options.largeCatalogColumns ?? 300);
      // CRUSH's hallucination needs only the question: it runs beside keyword extraction, so the two model calls
      // are one round on the question's critical path, not two.
      const crushing = large && options.crush ? options.crush({ catalog, keywords: [], context }) : undefined;
      crushing?.catch(() => undefined); // awaited below; a failure while keywords still run must not go unhandled
      context.emit({ type: "keywords-start" });
      const keywords = await questionKeywords(context, options.extractKeywordsWithModel ?? true);
      context.throwIfCancelled();
      const values =
        (options.valueIndex || options.liveValues) && keywords.length > 0
          ? await retrieveValues(catalog, keywords, context)
          : [];
      const readableTables = new Set(catalog.tables.map(tableKey));
      let contextHits: ContextHit[] = [];
      if (options.contextIndex || options.contextRetrieval) {
        context.emit({ type: "context-start" });
        if (options.contextIndex) {
          contextHits = (await options.contextIndex.retrieve({ question: context.question, keywords })).filter((hit) =>
            readableTables.has(hit.table),
          );
        } else if (options.contextRetrieval) {
          contextHits = await retrieveContext({
            ...options.contextRetrieval,
            question: context.question,
            keywords,
            readableTables,
            abortSignal: context.abortSignal,
          });
        }
        context.emit({
          type: "context-end",
          hits: contextHits.map((hit) =>
            hit.column === undefined ? { table: hit.table } : { table: hit.table, column: hit.column },
          ),
        });
      }
      if (!large) return { keywords, values, context: contextHits, ranked: [] };
      const crush = crushing ? await crushing : undefined;
      const ranked = (options.rankColumns?.(context.question, values) ?? []).filter((column) =>
        readableTables.has(column.table),
      );
      return { keywords, values, context: contextHits, ...(crush ? { crush } : {}), ranked };
    },
  };

  /** The part of `catalog` the live lookup reads: all of it without an index, else the columns the index truncated. */
  function liveCatalog(catalog: Catalog): Catalog {
    if (!options.valueIndex) return catalog;
    const wanted = options.liveValueColumns ?? new Set<string>();
    return {
      tables: catalog.tables
        .map((table) => ({
          ...table,
          columns: table.columns.filter((column) =>
            wanted.has(columnKey({ schema: table.schema, table: table.name, column: column.name })),
          ),
        }))
        .filter((table) => table.columns.length > 0),
    };
  }

  async function retrieveValues(catalog: Catalog, keywords: readonly string[], context: StepContext) {
    const readable = new Set(
      catalog.tables.flatMap((table) =>
        table.columns.map((column) => columnKey({ schema: table.schema, table: table.name, column: column.name })),
      ),
    );
    context.emit({ type: "values-start", keywords: keywords.length });
    const entities = await retrieveEntities({
      ...(options.valueIndex ? { index: options.valueIndex } : {}),
      ...(options.liveValues ? { live: { lookup: options.liveValues, catalog: liveCatalog(catalog) } } : {}),
      ...(options.valueEmbeddingModel ? { embeddingModel: options.valueEmbeddingModel } : {}),
      ...(options.valueEmbeddingThresholds
        ? {
            minEmbeddingSimilarity: options.valueEmbeddingThresholds.minimum,
            keepAboveEditSimilarity: options.valueEmbeddingThresholds.keepAboveEditSimilarity,
          }
        : {}),
      keywords,
      readableColumns: readable,
      visibility: options.valueVisibility,
      abortSignal: context.abortSignal,
    });
    const values: ValueMatch[] = entities.flatMap((entity) =>
      entity.matches.map((match) => ({
        keyword: entity.keyword,
        table: `${match.column.schema}.${match.column.table}`,
        column: match.column.column,
        value: match.value,
        source: match.column,
        editSimilarity: match.editSimilarity,
      })),
    );
    context.emit({
      type: "values-end",
      values: values.map(({ keyword, table, column, value }) => ({ keyword, table, column, value })),
    });
    return values;
  }
}
