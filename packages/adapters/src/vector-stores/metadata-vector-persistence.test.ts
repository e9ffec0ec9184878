import { createEmbeddedVectorStore } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { runVectorStoreContract } from "../testing/vector-store-contract";
import { createMetadataVectorPersistence, decodeVector, encodeVector } from "./metadata-vector-persistence";

runVectorStoreContract("embedded + PGlite metadata store", async () => {
  const metadata = await openMetadataStore({ directory: "memory://" });
  return {
    store: createEmbeddedVectorStore({
      persistence: createMetadataVectorPersistence(metadata.database),
      batchSize: 100,
    }),
    cleanup: () => metadata.close(),
  };
});

describe("embedded vector store persisted in the metadata store", () => {
  it("encodes vectors as little-endian float32 bytes", () => {
    const bytes = encodeVector(Float32Array.from([1, -0.5]));
    expect([...bytes]).toEqual([0, 0, 128, 63, 0, 0, 0, 191]);
    expect([...decodeVector(bytes.subarray(0))]).toEqual([1, -0.5]);
  });

  describe("on PostgreSQL", () => {
    let database: TestDatabase;
    let metadata: MetadataStore;
    beforeAll(async () => {
      database = await createTestDatabase("h7a_vectors");
      metadata = await openMetadataStore({ url: database.url });
    });
    afterAll(async () => {
      await metadata?.close();
      await database?.drop();
    });

    it("keeps points across store instances (a restart), including replacements and deletions", async () => {
      const persistence = createMetadataVectorPersistence(metadata.database);
      const first = createEmbeddedVectorStore({ persistence });
      await first.ensureCollection({ collection: "source_1", dimensions: 3 });
      await first.upsert({
        collection: "source_1",
        points: [
          { id: "table:s.orders", vector: [1, 0, 0], payload: { kind: "table", table: "s.orders" } },
          { id: "column:s.orders.id", vector: [0, 1, 0], payload: { kind: "column", table: "s.orders", column: "id" } },
          { id: "column:s.users.id", vector: [0, 0, 1], payload: { kind: "column", table: "s.users", column: "id" } },
        ],
      });
      await first.upsert({
        collection: "source_1",
        points: [
          { id: "table:s.orders", vector: [0, 3, 4], payload: { kind: "table", table: "s.orders", note: "v2" } },
        ],
      });
      await first.delete({ collection: "source_1", filter: { table: "s.users" } });
      await first.close();

      const second = createEmbeddedVectorStore({ persistence: createMetadataVectorPersistence(metadata.database) });
      expect(await second.count({ collection: "source_1" })).toBe(2);
      const [best] = await second.search({ collection: "source_1", vector: [0, 0.6, 0.8], limit: 1 });
      expect(best).toEqual({
        id: "table:s.orders",
        score: expect.closeTo(1, 5),
        payload: { kind: "table", table: "s.orders", note: "v2" },
      });
      await second.dropCollection({ collection: "source_1" });
      const third = createEmbeddedVectorStore({ persistence: createMetadataVectorPersistence(metadata.database) });
      await expect(third.count({ collection: "source_1" })).rejects.toThrow(/does not exist/);
    });
  });
});
