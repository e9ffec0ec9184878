import {
  createOfflineEmbeddingModel,
  type OfflineEmbeddingModel,
  type OfflineEmbeddingOptions,
  termWeightsFromTexts,
} from "../../embedding/offline-embedding-model";
import { type SchemaColumn, schemaColumnText } from "./schema-column";

/**
 * The offline embedder with inverse-document-frequency weights learnt from a catalog's column texts, so words that
 * name many columns (`id`, `name`, the database's own name) count less than distinctive ones.
 */
export function createCatalogEmbeddingModel(
  columns: readonly SchemaColumn[],
  options: OfflineEmbeddingOptions & { includeDatabase?: boolean } = {},
): OfflineEmbeddingModel {
  const includeDatabase = options.includeDatabase ?? true;
  const termWeights = termWeightsFromTexts(columns.map((column) => schemaColumnText(column, { includeDatabase })));
  return createOfflineEmbeddingModel({ ...options, termWeights });
}
