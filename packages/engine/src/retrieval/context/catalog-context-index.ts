import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { type Catalog, tableKey } from "../../catalog/catalog-types";
import type { Vector } from "../../embedding/vector-math";
import { rankScores } from "../crush/dense-column-ranking";
import { schemaColumnText } from "../crush/schema-column";
import { embedTexts } from "../crush/schema-retriever";
import type { ContextHit } from "./retrieve-context";
import { SparseVectorIndex } from "./sparse-vector-index";

interface ContextElement {
  readonly kind: "table" | "column";
  readonly table: string;
  readonly column?: string;
  readonly text: string;
}

/** The text embedded for a table: `table: description` (the indexer embeds the same text). */
export function tableContextText(table: { readonly name: string; readonly comment: string | null }): string {
  return table.comment ? `${table.name}: ${table.comment}` : table.name;
}

/** The text embedded for a column: `table.column: description`. */
export function columnContextText(
  table: { readonly name: string },
  column: { readonly name: string; readonly comment: string | null },
): string {
  return schemaColumnText({ table: table.name, column: column.name, description: column.comment ?? undefined });
}

/**
 * retrieve_context without a vector store round trip: the catalog's table and column descriptions embedded once in
 * process (sparse postings index), then each question costs a few sub-millisecond searches. Same hits as the vector
 * store path for the same embedding model.
 */
export interface CatalogContextIndex {
  retrieve(options: {
    readonly question: string;
    readonly keywords: readonly string[];
    /** Hits kept per probe. Default 5. */
    readonly limitPerProbe?: number;
  }): Promise<ContextHit[]>;
}

export async function createCatalogContextIndex(
  catalog: Catalog,
  embeddingModel: EmbeddingModelV3,
): Promise<CatalogContextIndex> {
  const elements: ContextElement[] = catalog.tables.flatMap((table) => [
    { kind: "table" as const, table: tableKey(table), text: tableContextText(table) },
    ...table.columns.map((column) => ({
      kind: "column" as const,
      table: tableKey(table),
      column: column.name,
      text: columnContextText(table, column),
    })),
  ]);
  const kinds = { table: [] as number[], column: [] as number[] };
  for (const [position, element] of elements.entries()) kinds[element.kind].push(position);
  const vectors = await embedTexts(
    embeddingModel,
    elements.map((element) => element.text),
  );
  const indexes = {
    table: new SparseVectorIndex(kinds.table.map((position) => vectors[position]!)),
    column: new SparseVectorIndex(kinds.column.map((position) => vectors[position]!)),
  };
  const search = (kind: "table" | "column", vector: Vector, limit: number) => {
    const similarities = indexes[kind].similarities(vector);
    return rankScores(similarities, limit).map((local) => ({
      element: elements[kinds[kind][local]!]!,
      score: similarities[local]!,
    }));
  };
  return {
    async retrieve({ question, keywords, limitPerProbe }) {
      const limit = limitPerProbe ?? 5;
      const probes = await embedTexts(embeddingModel, [question, ...keywords]);
      const best = new Map<string, ContextHit>();
      probes.forEach((vector, probe) => {
        const hits = [...search("column", vector, limit), ...(probe === 0 ? search("table", vector, limit) : [])];
        for (const { element, score } of hits) {
          const id = `${element.kind}:${element.table}.${element.column ?? ""}`;
          if ((best.get(id)?.score ?? Number.NEGATIVE_INFINITY) >= score) continue;
          best.set(id, { kind: element.kind, table: element.table, column: element.column, text: element.text, score });
        }
      });
      return [...best.values()].sort((left, right) => right.score - left.score);
    },
  };
}
