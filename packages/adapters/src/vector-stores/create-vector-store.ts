import type { EmbeddedVectorPersistence, VectorStore } from "@nlq/engine";
import { createEmbeddedVectorStore } from "@nlq/engine";
import type { QdrantSettings } from "../config/service-settings";
import { createQdrantVectorStore } from "./qdrant-vector-store";

export type CreateVectorStoreOptions = {
  /**
   * Qdrant (URL, API key, collection prefix), as `loadServiceSettings(environment).qdrant` reads them from
   * `NLQ_QDRANT_*`. Default: no URL, so the embedded store.
   */
  readonly qdrant?: Partial<QdrantSettings>;
  /** Persistence of the embedded store (e.g. `createMetadataVectorPersistence(database)`). Default: in memory only. */
  readonly persistence?: EmbeddedVectorPersistence;
};

/** The configured vector store: Qdrant when `qdrant.url` is set, the embedded store otherwise. */
export function createVectorStore(options: CreateVectorStoreOptions = {}): VectorStore {
  const qdrant = options.qdrant ?? {};
  if (qdrant.url !== undefined) {
    return createQdrantVectorStore({
      url: qdrant.url,
      apiKey: qdrant.apiKey,
      collectionPrefix: qdrant.collectionPrefix,
    });
  }
  return createEmbeddedVectorStore({ persistence: options.persistence });
}
