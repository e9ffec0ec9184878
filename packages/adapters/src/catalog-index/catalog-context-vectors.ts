import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { Catalog, TableInfo, VectorPoint, VectorStore } from "@nlq/engine";
import { columnContextText, columnPointId, embedTexts, tableContextText, tableKey, tablePointId } from "@nlq/engine";

/** Creates the description collection with the embedding model's dimensions (no-op when it exists). */
export async function ensureContextCollection(
  vectorStore: VectorStore,
  embeddingModel: EmbeddingModelV3,
  collection: string,
): Promise<void> {
  const [probe] = await embedTexts(embeddingModel, ["dimensions"]);
  await vectorStore.ensureCollection({ collection, dimensions: probe!.length });
}

/**
 * The description vectors `nlq index` writes for one table (retrieve_context searches them): the table's text and each
 * column's (`tableContextText`, `columnContextText`), replacing the table's earlier points.
 */
export async function embedTableContext(
  vectorStore: VectorStore,
  embeddingModel: EmbeddingModelV3,
  collection: string,
  table: TableInfo,
): Promise<void> {
  const key = tableKey(table);
  const texts = [tableContextText(table), ...table.columns.map((column) => columnContextText(table, column))];
  const vectors = await embedTexts(embeddingModel, texts);
  const points: VectorPoint[] = [
    { id: tablePointId(key), vector: vectors[0]!, payload: { kind: "table", table: key, text: texts[0] } },
    ...table.columns.map((column, position) => ({
      id: columnPointId(key, column.name),
      vector: vectors[position + 1]!,
      payload: { kind: "column" as const, table: key, column: column.name, text: texts[position + 1] },
    })),
  ];
  await vectorStore.delete({ collection, filter: { table: key } });
  await vectorStore.upsert({ collection, points });
}

/** The description vectors of every table of `catalog`, as `nlq index` writes them (for catalogs held in memory). */
export async function embedCatalogContext(
  vectorStore: VectorStore,
  embeddingModel: EmbeddingModelV3,
  collection: string,
  catalog: Catalog,
): Promise<void> {
  await ensureContextCollection(vectorStore, embeddingModel, collection);
  for (const table of catalog.tables) await embedTableContext(vectorStore, embeddingModel, collection, table);
}
