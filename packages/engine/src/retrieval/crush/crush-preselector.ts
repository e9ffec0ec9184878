import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { type Catalog, tableKey } from "../../catalog/catalog-types";
import { ModelCallError, ModelConfigurationError, ModelOutputError } from "../../errors/model-errors";
import type { StepContext } from "../../llm/step-context";
import { SparseVectorIndex } from "../context/sparse-vector-index";
import { catalogEmbeddingModel } from "./catalog-embedding-model";
import type { CrushSelectionOptions } from "./crush-selection";
import { hallucinateSchema } from "./hallucinate-schema";
import type { SchemaColumn } from "./schema-column";
import { type ColumnLink, inferKeyLinks } from "./schema-graph";
import { type CrushProbe, createSchemaRetriever, type SchemaRetriever } from "./schema-retriever";

/** The catalog's columns as CRUSH retrieval units (`database` = schema) and its foreign keys as links. */
export function catalogSchemaColumns(catalog: Catalog): { columns: SchemaColumn[]; links: ColumnLink[] } {
  const columns: SchemaColumn[] = [];
  const positions = new Map<string, number>();
  for (const table of catalog.tables) {
    for (const column of table.columns) {
      positions.set(`${table.schema}.${table.name}.${column.name}`, columns.length);
      columns.push({
        database: table.schema,
        table: table.name,
        column: column.name,
        description: column.comment ?? undefined,
      });
    }
  }
  const links: ColumnLink[] = [];
  for (const table of catalog.tables) {
    for (const key of table.foreignKeys) {
      key.columns.forEach((column, index) => {
        const from = positions.get(`${table.schema}.${table.name}.${column}`);
        const to = positions.get(`${key.referencedSchema}.${key.referencedTable}.${key.referencedColumns[index]}`);
        if (from !== undefined && to !== undefined) links.push({ from, to });
      });
    }
  }
  return { columns, links: links.length > 0 ? links : inferKeyLinks(columns) };
}

/**
 * Builds the CRUSH retriever of a catalog: every column embedded once (reuse it across questions) with the pipeline's
 * embedder, searched exactly (`SparseVectorIndex`: postings for the lexical block's sparse dimensions, a scan for the
 * word vectors' dense ones), with CRUSH's own collective selection (`rankCollectively`) over the catalog's foreign-key
 * graph.
 */
export async function createCatalogSchemaRetriever(
  catalog: Catalog,
  embeddingModel: EmbeddingModelV3,
  options: {
    readonly crush?: CrushSelectionOptions;
    /** How probes meet the question (`SchemaRetrieverOptions.probe`). Default: its default (the 0.45 mix). */
    readonly probe?: CrushProbe;
  } = {},
): Promise<SchemaRetriever> {
  const { columns, links } = catalogSchemaColumns(catalog);
  return createSchemaRetriever({
    columns,
    links,
    embeddingModel: catalogEmbeddingModel(embeddingModel, columns),
    ...(options.probe === undefined ? {} : { probe: options.probe }),
    crush: options.crush,
    createIndex: (columnVectors) => new SparseVectorIndex(columnVectors),
  });
}

/** The hallucinated schema (`Table(col, col)` strings): by default `hallucinateSchema`, one call of step `hallucinate-schema`. */
export type SchemaHallucinator = (context: StepContext) => Promise<readonly string[]>;

/** Columns picked for a question, by table (`schema.table` → column names). */
export type ColumnPicks = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Picks a large catalog's likely columns for a question before the model steps (CRUSH: `createCrushPreselector`);
 * returns only columns of `catalog` (the asking role's readable catalog).
 */
export type SchemaPreselector = (options: {
  readonly catalog: Catalog;
  /** The question's keywords when known; the retriever runs CRUSH beside keyword extraction and passes none. */
  readonly keywords: readonly string[];
  readonly context: StepContext;
}) => Promise<ColumnPicks>;

/** Columns CRUSH keeps per question in the live path (B), as in the prompt-size benchmark's production setting. */
export const defaultCrushBudget = 40;

/**
 * CRUSH as the retrieval stage's collective retrieval for large catalogs: hallucinate a minimal schema, then pick
 * `budget` columns collectively (entropy-guided coverage + connectivity). The retriever may cover more than the asking
 * role may read (it is built once per data source): picks outside the question's `catalog` (tables or columns the role
 * cannot read) are dropped. When the hallucination fails (no model configured, a scripted fixture without a
 * `hallucinate-schema` response, output that does not parse, the call budget spent) the question goes on without CRUSH
 * picks — CRUSH only narrows, the other retrieval still does — and `crush-end` says why (`fallbackReason`).
 */
export function createCrushPreselector(options: {
  readonly retriever: SchemaRetriever;
  /** Columns kept (B). Default `defaultCrushBudget` (40). */
  readonly budget?: number;
  /** Default: `hallucinateSchema` with the question's model. */
  readonly hallucinate?: SchemaHallucinator;
}): SchemaPreselector {
  const hallucinate =
    options.hallucinate ?? (async (context: StepContext) => (await hallucinateSchema(context)).tables);
  const budget = options.budget ?? defaultCrushBudget;
  return async ({ catalog, context }) => {
    context.emit({ type: "crush-start", budget });
    let hallucinated: readonly string[];
    try {
      hallucinated = await hallucinate(context);
    } catch (error) {
      if (!isModelStepFailure(error)) throw error;
      context.emit({ type: "crush-end", hallucinated: [], columns: 0, fallbackReason: error.message });
      return new Map();
    }
    context.throwIfCancelled();
    const readable = new Map(
      catalog.tables.map((table) => [tableKey(table), new Set(table.columns.map((column) => column.name))]),
    );
    const picked = await options.retriever.retrieveCollectively({ question: context.question, hallucinated, budget });
    const selection = new Map<string, Set<string>>();
    let kept = 0;
    for (const column of picked) {
      const table = `${column.database}.${column.table}`;
      if (!readable.get(table)?.has(column.column)) continue;
      const columns = selection.get(table) ?? new Set<string>();
      columns.add(column.column);
      selection.set(table, columns);
      kept += 1;
    }
    context.emit({ type: "crush-end", hallucinated, columns: kept });
    return selection;
  };
}

function isModelStepFailure(error: unknown): error is ModelCallError | ModelOutputError | ModelConfigurationError {
  return (
    ModelCallError.isInstance(error) || ModelOutputError.isInstance(error) || ModelConfigurationError.isInstance(error)
  );
}
