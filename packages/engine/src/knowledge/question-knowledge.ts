import type { PromptKnowledge } from "@nlq/prompts";
import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { KnowledgeEntry, KnowledgeUsed } from "../contract/knowledge";
import { resolveEmbeddingModel } from "../embedding/resolve-embedding-model";
import type { StepContext } from "../llm/step-context";
import { heuristicKeywords } from "../retrieval/keywords/heuristic-keywords";
import { descriptionsByElement, descriptionsShown, withKnowledgeDescriptions } from "./knowledge-descriptions";
import { knowledgeReferences, readableKnowledge } from "./readable-knowledge";
import { type RetrievedKnowledge, retrieveKnowledge } from "./retrieve-knowledge";

/** The knowledge a question may use, before retrieval: what the role may read of it, split by how it is used. */
export interface ReadableQuestionKnowledge {
  /** The catalog with the description entries in place of its comments. */
  readonly catalog: Catalog;
  /** The description entries applied, by element. */
  readonly descriptions: ReadonlyMap<string, KnowledgeEntry>;
  /** Terms, metrics, rules and readings the role may read: what retrieval chooses from. */
  readonly retrievable: readonly KnowledgeEntry[];
}

/**
 * Keeps the entries whose every table and column the asking role may read (`catalog` is restricted to it) and applies
 * the descriptions among them to the catalog.
 */
export function readableQuestionKnowledge(
  entries: readonly KnowledgeEntry[] | undefined,
  catalog: Catalog,
): ReadableQuestionKnowledge {
  if (!entries || entries.length === 0) return { catalog, descriptions: new Map(), retrievable: [] };
  const readable = readableKnowledge(entries, catalog);
  const descriptions = descriptionsByElement(readable, catalog);
  return {
    catalog: withKnowledgeDescriptions(catalog, descriptions),
    descriptions,
    retrievable: readable.filter((entry) => entry.kind !== "description"),
  };
}

/**
 * The entries retrieved for the question (`retrieveKnowledge`) with the selector's keywords (the heuristic ones when it
 * extracted none) and the pipeline's embedding model (`NLQ_EMBEDDING_MODEL`). An embedding model that cannot be
 * resolved or fails leaves retrieval to the keywords; a cancellation is not swallowed.
 */
export async function retrieveQuestionKnowledge(options: {
  readonly retrievable: readonly KnowledgeEntry[];
  readonly context: StepContext;
  readonly keywords?: readonly string[];
}): Promise<RetrievedKnowledge[]> {
  const { context } = options;
  if (options.retrievable.length === 0) return [];
  const keywords = options.keywords ?? heuristicKeywords([context.question, context.hint ?? ""].join(" "));
  const base = {
    entries: options.retrievable,
    question: context.question,
    ...(context.hint ? { hint: context.hint } : {}),
    keywords,
    limit: context.settings.knowledgeLimit,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  };
  try {
    const embeddingModel = resolveEmbeddingModel(context.settings.embeddingModel, context.settings);
    return await retrieveKnowledge({ ...base, embeddingModel });
  } catch (error) {
    context.throwIfCancelled();
    if (context.abortSignal?.aborted) throw error;
    return retrieveKnowledge(base);
  }
}

/**
 * `selected` with every table and column a retrieved entry names added back from `catalog` (a metric is no use when
 * schema selection dropped the column its SQL sums). Tables keep the catalog's order and columns their table order.
 */
export function withReferencedElements(
  selected: Catalog,
  catalog: Catalog,
  entries: readonly Pick<KnowledgeEntry, "references" | "reading">[],
): Catalog {
  const wanted = new Set(entries.flatMap((entry) => knowledgeReferences(entry)));
  if (wanted.size === 0) return selected;
  const selectedTables = new Map(selected.tables.map((table) => [tableKey(table), table]));
  let changed = false;
  const tables = catalog.tables.flatMap((table) => {
    const key = tableKey(table);
    const current = selectedTables.get(key);
    const wantedColumns = table.columns.filter((column) => wanted.has(`${key}.${column.name}`));
    if (!current) {
      if (!wanted.has(key) && wantedColumns.length === 0) return [];
      changed = true;
      const keep = new Set([...table.primaryKey, ...wantedColumns.map((column) => column.name)]);
      return [
        {
          ...table,
          columns:
            wanted.has(key) && wantedColumns.length === 0
              ? table.columns
              : table.columns.filter((column) => keep.has(column.name)),
        },
      ];
    }
    const present = new Set(current.columns.map((column) => column.name));
    const missing = wantedColumns.filter((column) => !present.has(column.name));
    if (missing.length === 0) return [current];
    changed = true;
    const keep = new Set([...present, ...missing.map((column) => column.name)]);
    return [
      {
        ...current,
        columns: table.columns
          .filter((column) => keep.has(column.name))
          .map((column) => current.columns.find((shown) => shown.name === column.name) ?? column),
      },
    ];
  });
  if (!changed) return selected;
  // Tables the selector kept that the catalog does not list (none in practice) stay at the end.
  const listed = new Set(catalog.tables.map(tableKey));
  return { ...selected, tables: [...tables, ...selected.tables.filter((table) => !listed.has(tableKey(table)))] };
}

/** The entries as the prompts show them. */
export function promptKnowledge(retrieved: readonly RetrievedKnowledge[]): PromptKnowledge[] {
  return retrieved.map(({ entry }) => ({
    kind: entry.kind,
    name: entry.name,
    text: entry.text,
    ...(entry.sql ? { sql: entry.sql } : {}),
  }));
}

/** What the answer says it used: the retrieved entries, then the descriptions of what the generators were shown. */
export function knowledgeUsed(
  retrieved: readonly RetrievedKnowledge[],
  descriptions: ReadonlyMap<string, KnowledgeEntry>,
  selected: Catalog,
): KnowledgeUsed[] {
  return [...retrieved.map(({ entry }) => entry), ...descriptionsShown(descriptions, selected)].map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    name: entry.name,
  }));
}
