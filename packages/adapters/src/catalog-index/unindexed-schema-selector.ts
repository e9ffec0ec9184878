import { createHash } from "node:crypto";
import type { Catalog, CatalogContextIndex, SchemaSelector, Settings } from "@nlq/engine";
import { countColumns, createCatalogContextIndex } from "@nlq/engine";
import { resolvePipelineEmbeddingModel } from "../embedding/pipeline-embedding-model";
import { createIndexedSchemaSelector, type IndexedSelectorRankers } from "./indexed-schema-selector";
import { type RetrievalValueSources, retrievalOnlySelector } from "./retrieval-only-selector";

/** What a large live catalog's selector is built from once: the rankers and the in-process description index. */
interface LiveCatalogRankers extends IndexedSelectorRankers {
  contextIndex?: Promise<CatalogContextIndex>;
}

/** Rankers of the large live catalogs seen lately, by their shape (`catalogShape`), most recent last. */
const liveRankers = new Map<string, LiveCatalogRankers>();
/** Large live catalogs whose rankers this process keeps (each a few MB of vectors). */
const keptShapes = 4;

/**
 * The schema selector of a database nothing is indexed for: catalogs up to `settings.schemaSelectionMinimumColumns`
 * (`NLQ_SCHEMA_SELECTION_MIN_COLUMNS`) are shown whole with retrieval's values (`retrievalOnlySelector`); a larger one
 * is not sent to the prompt whole but narrowed and selected exactly as an indexed one (`createIndexedSchemaSelector`:
 * CRUSH, the learnt ranking, values, descriptions, then CHESS's steps), with the description index built in process
 * from the introspected catalog (already the asking role's). What is built over a catalog is kept for its next
 * questions while its names and comments stay the same. Named `chess-retrieval`, as the selector it extends.
 */
export function unindexedSchemaSelector(settings: Settings, sources: RetrievalValueSources): SchemaSelector {
  const small = retrievalOnlySelector(settings, sources);
  return {
    name: small.name,
    async select(options) {
      if (countColumns(options.catalog) <= settings.schemaSelectionMinimumColumns) return small.select(options);
      const embeddingModel = resolvePipelineEmbeddingModel(settings);
      const rankers = rankersFor(options.catalog, `${embeddingModel.provider}:${embeddingModel.modelId}`);
      rankers.contextIndex ??= createCatalogContextIndex(options.catalog, embeddingModel).catch((error: unknown) => {
        rankers.contextIndex = undefined;
        throw error;
      });
      const selector = await createIndexedSchemaSelector({
        catalog: options.catalog,
        settings,
        rankers,
        embeddingModel,
        contextIndex: await rankers.contextIndex,
        ...sources,
      });
      return selector.select(options);
    },
  };
}

function rankersFor(catalog: Catalog, embedder: string): LiveCatalogRankers {
  const shape = `${embedder}\u0000${catalogShape(catalog)}`;
  const known = liveRankers.get(shape);
  liveRankers.delete(shape);
  const rankers = known ?? {};
  liveRankers.set(shape, rankers);
  for (const oldest of liveRankers.keys()) {
    if (liveRankers.size <= keptShapes) break;
    liveRankers.delete(oldest);
  }
  return rankers;
}

/** A digest of what the rankers read of a catalog: tables, columns, types, comments and foreign keys. */
function catalogShape(catalog: Catalog): string {
  const hash = createHash("sha256");
  for (const table of catalog.tables) {
    hash.update(`${table.schema}\u0000${table.name}\u0000${table.comment ?? ""}\u0001`);
    for (const column of table.columns)
      hash.update(`${column.name}\u0000${column.dataType}\u0000${column.comment ?? ""}\u0002`);
    for (const key of table.foreignKeys)
      hash.update(
        `${key.columns.join(",")}>${key.referencedSchema}.${key.referencedTable}(${key.referencedColumns.join(",")})\u0003`,
      );
  }
  return hash.digest("hex");
}
