import type { VectorPayload } from "./vector-store";

/** A stored point as the embedded backend persists it: the vector already normalised. */
export type PersistedVectorPoint = {
  readonly id: string;
  readonly vector: Float32Array;
  readonly payload: VectorPayload;
};

/**
 * Where the embedded vector store keeps its points between runs. The store holds every collection
 * it touches in memory and writes through to this adapter; `loadCollection` is called once per
 * collection on first use. The metadata-store implementation is `createMetadataVectorPersistence`.
 */
export type EmbeddedVectorPersistence = {
  /** The collection's dimensions and points, or `undefined` when it was never created. */
  loadCollection(collection: string): Promise<{ dimensions: number; points: PersistedVectorPoint[] } | undefined>;
  /** Records that the collection exists with these dimensions. */
  createCollection(collection: string, dimensions: number): Promise<void>;
  /** Inserts or replaces points. */
  upsertPoints(collection: string, points: readonly PersistedVectorPoint[]): Promise<void>;
  /** Deletes points by id. */
  deletePoints(collection: string, ids: readonly string[]): Promise<void>;
  /** Deletes the collection and all its points. */
  dropCollection(collection: string): Promise<void>;
};
