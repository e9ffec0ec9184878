import type { EmbeddedVectorPersistence, PersistedVectorPoint, VectorPayload } from "@nlq/engine";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { embeddingCollections, embeddings } from "../metadata/schema/embeddings";

/**
 * Persists the embedded vector store's points in the metadata store (tables `embedding_collections`
 * and `embeddings`; PGlite or PostgreSQL). Vectors are little-endian float32 bytes.
 *
 *   const metadata = await openMetadataStore();
 *   const store = createEmbeddedVectorStore({ persistence: createMetadataVectorPersistence(metadata.database) });
 */
export function createMetadataVectorPersistence(database: MetadataDatabase): EmbeddedVectorPersistence {
  return {
    async loadCollection(collection) {
      const [found] = await database
        .select({ dimensions: embeddingCollections.dimensions })
        .from(embeddingCollections)
        .where(eq(embeddingCollections.name, collection));
      if (found === undefined) return undefined;
      const rows = await database
        .select({ pointId: embeddings.pointId, vector: embeddings.vector, payload: embeddings.payload })
        .from(embeddings)
        .where(eq(embeddings.collection, collection));
      const points: PersistedVectorPoint[] = rows.map((row) => ({
        id: row.pointId,
        vector: decodeVector(row.vector),
        payload: row.payload as VectorPayload,
      }));
      return { dimensions: found.dimensions, points };
    },

    async createCollection(collection, dimensions) {
      await database.insert(embeddingCollections).values({ name: collection, dimensions }).onConflictDoNothing();
    },

    async upsertPoints(collection, points) {
      if (points.length === 0) return;
      const byId = new Map(points.map((point) => [point.id, point]));
      await database
        .insert(embeddings)
        .values(
          [...byId.values()].map((point) => ({
            collection,
            pointId: point.id,
            vector: encodeVector(point.vector),
            payload: point.payload as Record<string, unknown>,
          })),
        )
        .onConflictDoUpdate({
          target: [embeddings.collection, embeddings.pointId],
          set: { vector: sqlExcluded("vector"), payload: sqlExcluded("payload"), updatedAt: new Date() },
        });
    },

    async deletePoints(collection, ids) {
      if (ids.length === 0) return;
      await database
        .delete(embeddings)
        .where(and(eq(embeddings.collection, collection), inArray(embeddings.pointId, [...ids])));
    },

    async dropCollection(collection) {
      await database.delete(embeddingCollections).where(eq(embeddingCollections.name, collection));
    },
  };
}

/** The value the conflicting INSERT proposed for a column (`excluded."column"`). */
function sqlExcluded(column: "vector" | "payload") {
  return sql.raw(`excluded."${column}"`);
}

/** Float32Array → little-endian bytes. */
export function encodeVector(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let position = 0; position < vector.length; position++) view.setFloat32(position * 4, vector[position]!, true);
  return bytes;
}

/** Little-endian bytes → Float32Array. */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / 4);
  for (let position = 0; position < vector.length; position++) vector[position] = view.getFloat32(position * 4, true);
  return vector;
}
