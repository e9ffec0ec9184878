import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import {
  createOfflineEmbeddingModel,
  OfflineEmbeddingModel,
  type OfflineEmbeddingOptions,
  termWeightsFromTexts,
} from "../../embedding/offline-embedding-model";
import { WordVectorEmbeddingModel } from "../../embedding/word-vector-embedding-model";
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

/**
 * The embedding model a catalog's in-process indexes use (CRUSH's retriever, the description index): the built-in
 * embedders get the catalog's inverse-document-frequency weights (`termWeightsFromTexts` over its column texts), so
 * `id`, `name` or the schema's own name count less; a provider's model is used as it is.
 */
export function catalogEmbeddingModel(model: EmbeddingModelV3, columns: readonly SchemaColumn[]): EmbeddingModelV3 {
  if (model instanceof WordVectorEmbeddingModel) {
    return model.withTermWeights(
      termWeightsFromTexts(columns.map((column) => schemaColumnText(column, { includeDatabase: true }))),
    );
  }
  if (model instanceof OfflineEmbeddingModel) return createCatalogEmbeddingModel(columns);
  return model;
}
