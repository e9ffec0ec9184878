import { EmbeddedCollection } from "./embedded-collection";
import type { EmbeddedVectorPersistence, PersistedVectorPoint } from "./embedded-vector-persistence";
import { normalizeVector } from "./vector-math";
import type {
  CollectionOptions,
  CountOptions,
  DeleteOptions,
  EnsureCollectionOptions,
  SearchOptions,
  UpsertOptions,
  VectorStore,
} from "./vector-store";
import { VectorCollectionNotFoundError, VectorDimensionError } from "./vector-store-errors";
import { assertCollectionName, assertDimensions, assertLimit, assertVectorLength } from "./vector-store-validation";

export type EmbeddedVectorStoreOptions = {
  /**
   * Where points survive restarts (e.g. `createMetadataVectorPersistence(database)` over the metadata
   * store). Default: none — points live only in this process.
   */
  readonly persistence?: EmbeddedVectorPersistence;
  /** Points written to the persistence adapter per call. Default: 500. */
  readonly batchSize?: number;
};

/**
 * The embedded vector store: exact cosine search in process over normalised Float32Array rows
 * (about a millisecond or two per query for 5,000 × 1,024 floats), optionally persisted to the
 * metadata store. The default backend when no Qdrant is configured; see
 * docs/decisions/2026-11-21-embedded-vector-store.md.
 */
export function createEmbeddedVectorStore(options: EmbeddedVectorStoreOptions = {}): VectorStore {
  const persistence = options.persistence;
  const batchSize = options.batchSize ?? 500;
  const collections = new Map<string, Promise<EmbeddedCollection | undefined>>();

  function load(collection: string): Promise<EmbeddedCollection | undefined> {
    assertCollectionName(collection);
    let loaded = collections.get(collection);
    if (loaded === undefined) {
      loaded = loadFromPersistence(collection);
      collections.set(collection, loaded);
      loaded.catch(() => collections.delete(collection));
    }
    return loaded;
  }

  async function loadFromPersistence(collection: string): Promise<EmbeddedCollection | undefined> {
    const stored = await persistence?.loadCollection(collection);
    if (stored === undefined) return undefined;
    const memory = new EmbeddedCollection(stored.dimensions);
    for (const point of stored.points) memory.set(point.id, point.vector, point.payload);
    return memory;
  }

  async function require(collection: string): Promise<EmbeddedCollection> {
    const memory = await load(collection);
    if (memory === undefined) throw new VectorCollectionNotFoundError(collection);
    return memory;
  }

  return {
    name: "embedded",

    async ensureCollection({ collection, dimensions }: EnsureCollectionOptions) {
      assertCollectionName(collection);
      assertDimensions(collection, dimensions);
      const existing = await load(collection);
      if (existing !== undefined) {
        if (existing.dimensions !== dimensions) {
          throw new VectorDimensionError(
            `vector collection "${collection}" exists with ${existing.dimensions} dimensions, not ${dimensions}`,
            { collection, expected: existing.dimensions, actual: dimensions },
          );
        }
        return;
      }
      await persistence?.createCollection(collection, dimensions);
      collections.set(collection, Promise.resolve(new EmbeddedCollection(dimensions)));
    },

    async upsert({ collection, points }: UpsertOptions) {
      const memory = await require(collection);
      const normalized: PersistedVectorPoint[] = points.map((point) => {
        assertVectorLength(collection, point.vector, memory.dimensions);
        return { id: point.id, vector: normalizeVector(point.vector), payload: point.payload };
      });
      for (let start = 0; start < normalized.length; start += batchSize) {
        const batch = normalized.slice(start, start + batchSize);
        await persistence?.upsertPoints(collection, batch);
        for (const point of batch) memory.set(point.id, point.vector, point.payload);
      }
    },

    async search({ collection, vector, limit, filter }: SearchOptions) {
      const memory = await require(collection);
      assertVectorLength(collection, vector, memory.dimensions);
      assertLimit(collection, limit);
      return memory.search(normalizeVector(vector), limit, filter);
    },

    async delete(deleteOptions: DeleteOptions) {
      const { collection } = deleteOptions;
      const memory = await require(collection);
      const ids = deleteOptions.ids ?? memory.idsMatching(deleteOptions.filter);
      for (let start = 0; start < ids.length; start += batchSize) {
        const batch = ids.slice(start, start + batchSize);
        await persistence?.deletePoints(collection, batch);
        for (const id of batch) memory.remove(id);
      }
    },

    async count({ collection, filter }: CountOptions) {
      const memory = await require(collection);
      return filter === undefined ? memory.size : memory.idsMatching(filter).length;
    },

    async dropCollection({ collection }: CollectionOptions) {
      assertCollectionName(collection);
      await persistence?.dropCollection(collection);
      collections.set(collection, Promise.resolve(undefined));
    },

    async close() {
      collections.clear();
    },
  };
}
