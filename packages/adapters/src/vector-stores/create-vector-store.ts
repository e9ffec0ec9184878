import type { EmbeddedVectorPersistence, VectorStore } from "@nlq/engine";
import { createEmbeddedVectorStore } from "@nlq/engine";
import { createQdrantVectorStore } from "./qdrant-vector-store";

export type CreateVectorStoreOptions = {
  /** Qdrant REST URL. Default: `NLQ_QDRANT_URL`; when neither is set the embedded store is used. */
  readonly qdrantUrl?: string;
  /** Qdrant API key. Default: `NLQ_QDRANT_API_KEY`, else none. */
  readonly qdrantApiKey?: string;
  /** Prefix of every Qdrant collection name. Default: `NLQ_QDRANT_COLLECTION_PREFIX`, else `""`. */
  readonly qdrantCollectionPrefix?: string;
  /** Persistence of the embedded store (e.g. `createMetadataVectorPersistence(database)`). Default: in memory only. */
  readonly persistence?: EmbeddedVectorPersistence;
  /** Environment variables to read. Default: `process.env`. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
};

/** The configured vector store: Qdrant when a URL is given (option or `NLQ_QDRANT_URL`), the embedded store otherwise. */
export function createVectorStore(options: CreateVectorStoreOptions = {}): VectorStore {
  const environment = options.environment ?? process.env;
  const qdrantUrl = options.qdrantUrl ?? nonEmpty(environment.NLQ_QDRANT_URL);
  if (qdrantUrl !== undefined) {
    return createQdrantVectorStore({
      url: qdrantUrl,
      apiKey: options.qdrantApiKey ?? nonEmpty(environment.NLQ_QDRANT_API_KEY),
      collectionPrefix: options.qdrantCollectionPrefix ?? nonEmpty(environment.NLQ_QDRANT_COLLECTION_PREFIX),
    });
  }
  return createEmbeddedVectorStore({ persistence: options.persistence });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
