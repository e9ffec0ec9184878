import type {
  CollectionOptions,
  CountOptions,
  DeleteOptions,
  EnsureCollectionOptions,
  SearchOptions,
  UpsertOptions,
  VectorPayload,
  VectorSearchResult,
  VectorStore,
} from "@nlq/engine";
import {
  assertCollectionName,
  assertDimensions,
  assertLimit,
  assertVectorLength,
  VectorCollectionNotFoundError,
  VectorDimensionError,
  VectorStoreError,
} from "@nlq/engine";
import { QdrantClient } from "@qdrant/js-client-rest";
import { filterMatchesNothing, toQdrantFilter } from "./qdrant-filter";
import { qdrantPointId, qdrantPointIdField } from "./qdrant-point-id";

export type QdrantVectorStoreOptions = {
  /** Qdrant REST endpoint, e.g. `http://localhost:6333`. Required. */
  readonly url: string;
  /** API key sent as the `api-key` header. Default: none. */
  readonly apiKey?: string;
  /** Prefix prepended to every collection name (e.g. `nlq_`), to share one Qdrant between deployments. Default: `""`. */
  readonly collectionPrefix?: string;
  /** Points per upsert request. Default: 256. */
  readonly batchSize?: number;
  /** Request timeout in milliseconds. Default: 30,000. */
  readonly timeoutMs?: number;
};

/**
 * Qdrant backend (`@qdrant/js-client-rest` 1.18): one collection per data source, cosine distance,
 * payload filters on `kind` and `table` (`must` + `match`, keyword payload indexes created with the
 * collection), batched upserts (`wait: true`), search
 * through the Query API (`POST /collections/{name}/points/query`). String ids are mapped to
 * version-5 UUIDs; the original id is kept in the payload field `nlq_point_id`.
 *
 * Tested against an in-process HTTP server implementing the documented REST shapes of the endpoints
 * used (qdrant-vector-store.test.ts), NOT against a live Qdrant server.
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): VectorStore {
  const client = new QdrantClient({
    url: options.url,
    apiKey: options.apiKey,
    timeout: options.timeoutMs ?? 30_000,
    checkCompatibility: false,
  });
  const prefix = options.collectionPrefix ?? "";
  const batchSize = options.batchSize ?? 256;
  const dimensionsByCollection = new Map<string, number>();

  const remoteName = (collection: string) => {
    assertCollectionName(collection);
    return `${prefix}${collection}`;
  };

  async function call<Result>(collection: string, action: string, run: () => Promise<Result>): Promise<Result> {
    try {
      return await run();
    } catch (error) {
      // Qdrant answers a missing collection with 404 and `status.error` "Not found: Collection `x` doesn't exist!";
      // a bare 404 (e.g. an old server without the Query API) is another failure.
      if (statusOf(error) === 404 && /collection/i.test(qdrantErrorDetail(error) ?? "")) {
        throw new VectorCollectionNotFoundError(collection, { cause: error });
      }
      throw new VectorStoreError(`Qdrant ${action} on collection "${collection}" failed: ${messageOf(error)}`, {
        collection,
        cause: error,
      });
    }
  }

  async function dimensionsOf(collection: string): Promise<number> {
    const known = dimensionsByCollection.get(collection);
    if (known !== undefined) return known;
    const info = await call(collection, "get collection", () => client.getCollection(remoteName(collection)));
    const dimensions = vectorSizeOf(info.config.params.vectors);
    if (dimensions === undefined) {
      throw new VectorStoreError(`Qdrant collection "${collection}" has no single unnamed vector`, { collection });
    }
    dimensionsByCollection.set(collection, dimensions);
    return dimensions;
  }

  return {
    name: "qdrant",

    async ensureCollection({ collection, dimensions }: EnsureCollectionOptions) {
      const name = remoteName(collection);
      assertDimensions(collection, dimensions);
      const { exists } = await call(collection, "collection exists", () => client.collectionExists(name));
      if (!exists) {
        const created = await call(collection, "create collection", () =>
          client.createCollection(name, { vectors: { size: dimensions, distance: "Cosine" } }),
        ).catch(async (error: unknown) => {
          // Another process may have created it meanwhile: then compare dimensions below.
          if ((await client.collectionExists(name).catch(() => ({ exists: false }))).exists) return false;
          throw error;
        });
        if (created !== false) {
          // Keyword indexes on the filtered payload fields keep filtered searches fast on large collections.
          for (const field of ["kind", "table"]) {
            await call(collection, "create payload index", () =>
              client.createPayloadIndex(name, { field_name: field, field_schema: "keyword", wait: true }),
            );
          }
          dimensionsByCollection.set(collection, dimensions);
          return;
        }
      }
      dimensionsByCollection.delete(collection);
      const existing = await dimensionsOf(collection);
      if (existing !== dimensions) {
        throw new VectorDimensionError(
          `vector collection "${collection}" exists with ${existing} dimensions, not ${dimensions}`,
          { collection, expected: existing, actual: dimensions },
        );
      }
    },

    async upsert({ collection, points }: UpsertOptions) {
      const name = remoteName(collection);
      const dimensions = await dimensionsOf(collection);
      for (const point of points) assertVectorLength(collection, point.vector, dimensions);
      for (let start = 0; start < points.length; start += batchSize) {
        const batch = points.slice(start, start + batchSize).map((point) => ({
          id: qdrantPointId(point.id),
          vector: Array.from(point.vector),
          payload: { ...point.payload, [qdrantPointIdField]: point.id },
        }));
        await call(collection, "upsert", () => client.upsert(name, { wait: true, points: batch }));
      }
    },

    async search({ collection, vector, limit, filter }: SearchOptions) {
      const name = remoteName(collection);
      const dimensions = await dimensionsOf(collection);
      assertVectorLength(collection, vector, dimensions);
      assertLimit(collection, limit);
      if (limit === 0 || filterMatchesNothing(filter)) return [];
      const response = await call(collection, "query", () =>
        client.query(name, { query: Array.from(vector), limit, filter: toQdrantFilter(filter), with_payload: true }),
      );
      const hits: VectorSearchResult[] = response.points.map((scored) => {
        const { [qdrantPointIdField]: id, ...payload } = (scored.payload ?? {}) as Record<string, unknown>;
        return {
          id: typeof id === "string" ? id : String(scored.id),
          score: scored.score,
          payload: payload as VectorPayload,
        };
      });
      return hits.sort(
        (left, right) => right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
      );
    },

    async delete(deleteOptions: DeleteOptions) {
      const { collection } = deleteOptions;
      const name = remoteName(collection);
      if (deleteOptions.ids !== undefined) {
        for (let start = 0; start < deleteOptions.ids.length; start += batchSize) {
          const ids = deleteOptions.ids.slice(start, start + batchSize).map(qdrantPointId);
          await call(collection, "delete", () => client.delete(name, { wait: true, points: ids }));
        }
        return;
      }
      if (filterMatchesNothing(deleteOptions.filter)) {
        await dimensionsOf(collection);
        return;
      }
      const filter = toQdrantFilter(deleteOptions.filter) ?? { must: [] };
      await call(collection, "delete", () => client.delete(name, { wait: true, filter }));
    },

    async count({ collection, filter }: CountOptions) {
      const name = remoteName(collection);
      if (filterMatchesNothing(filter)) {
        await dimensionsOf(collection);
        return 0;
      }
      const result = await call(collection, "count", () =>
        client.count(name, { filter: toQdrantFilter(filter), exact: true }),
      );
      return result.count;
    },

    async dropCollection({ collection }: CollectionOptions) {
      const name = remoteName(collection);
      dimensionsByCollection.delete(collection);
      try {
        await call(collection, "delete collection", () => client.deleteCollection(name));
      } catch (error) {
        if (!VectorCollectionNotFoundError.isInstance(error)) throw error;
      }
    },

    async close() {
      dimensionsByCollection.clear();
    },
  };
}

function vectorSizeOf(vectors: unknown): number | undefined {
  if (typeof vectors === "object" && vectors !== null && "size" in vectors && typeof vectors.size === "number") {
    return vectors.size;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") {
    return error.status;
  }
  return undefined;
}

/** The `status.error` text of a Qdrant error response, if the error carries one. */
function qdrantErrorDetail(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("data" in error)) return undefined;
  const detail = (error.data as { status?: { error?: unknown } } | undefined)?.status?.error;
  return typeof detail === "string" ? detail : undefined;
}

function messageOf(error: unknown): string {
  return qdrantErrorDetail(error) ?? (error instanceof Error ? error.message : String(error));
}
