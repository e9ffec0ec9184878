import { VectorCollectionNotFoundError, VectorStoreError } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeQdrantServer, startFakeQdrantServer } from "../testing/fake-qdrant-server";
import { runVectorStoreContract } from "../testing/vector-store-contract";
import { qdrantPointId } from "./qdrant-point-id";
import { createQdrantVectorStore } from "./qdrant-vector-store";

// The Qdrant backend is exercised at the HTTP boundary against a strict fake of the documented REST
// API (fake-qdrant-server.ts); no live Qdrant server is available here.
runVectorStoreContract("qdrant (fake REST server)", async () => {
  const server = await startFakeQdrantServer();
  const store = createQdrantVectorStore({ url: server.url, batchSize: 100 });
  return {
    store,
    cleanup: async () => {
      expect(server.violations).toEqual([]);
      await server.close();
    },
  };
});

describe("qdrant vector store requests", () => {
  let server: FakeQdrantServer;
  beforeAll(async () => {
    server = await startFakeQdrantServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("sends the documented request shapes: cosine collection, batched upserts with UUIDs, must/match filters", async () => {
    const store = createQdrantVectorStore({
      url: server.url,
      apiKey: "secret-key",
      collectionPrefix: "nlq_",
      batchSize: 2,
    });
    server.requests.length = 0;
    await store.ensureCollection({ collection: "sales", dimensions: 2 });
    await store.upsert({
      collection: "sales",
      points: [
        { id: "column:s.orders.amount", vector: [1, 0], payload: { kind: "column", table: "s.orders" } },
        { id: "column:s.orders.city", vector: [0, 1], payload: { kind: "column", table: "s.orders" } },
        { id: "table:s.orders", vector: [1, 1], payload: { kind: "table", table: "s.orders" } },
      ],
    });
    await store.search({
      collection: "sales",
      vector: [1, 0],
      limit: 2,
      filter: { kind: "column", tables: ["s.orders"] },
    });
    await store.count({ collection: "sales", filter: { table: "s.orders" } });
    await store.delete({ collection: "sales", filter: { kind: "table" } });

    const summary = server.requests.map((request) => `${request.method} ${request.path}`);
    expect(summary).toEqual([
      "GET /collections/nlq_sales/exists",
      "PUT /collections/nlq_sales",
      "PUT /collections/nlq_sales/index",
      "PUT /collections/nlq_sales/index",
      "PUT /collections/nlq_sales/points",
      "PUT /collections/nlq_sales/points",
      "POST /collections/nlq_sales/points/query",
      "POST /collections/nlq_sales/points/count",
      "POST /collections/nlq_sales/points/delete",
    ]);
    expect(server.requests.every((request) => request.headers["api-key"] === "secret-key")).toBe(true);
    expect(server.requests[1]!.body).toMatchObject({ vectors: { size: 2, distance: "Cosine" } });
    expect(server.requests[2]!.body).toEqual({ field_name: "kind", field_schema: "keyword" });
    expect(server.payloadIndexes("nlq_sales")).toEqual({ kind: "keyword", table: "keyword" });
    expect(server.requests[4]!.query.wait).toBe("true");
    expect(server.requests[4]!.body).toEqual({
      points: [
        {
          id: qdrantPointId("column:s.orders.amount"),
          vector: [1, 0],
          payload: { kind: "column", table: "s.orders", nlq_point_id: "column:s.orders.amount" },
        },
        {
          id: qdrantPointId("column:s.orders.city"),
          vector: [0, 1],
          payload: { kind: "column", table: "s.orders", nlq_point_id: "column:s.orders.city" },
        },
      ],
    });
    expect((server.requests[5]!.body as { points: unknown[] }).points).toHaveLength(1);
    expect(server.requests[6]!.body).toEqual({
      query: [1, 0],
      limit: 2,
      with_payload: true,
      filter: {
        must: [
          { key: "kind", match: { value: "column" } },
          { key: "table", match: { any: ["s.orders"] } },
        ],
      },
    });
    expect(server.requests[7]!.body).toEqual({
      filter: { must: [{ key: "table", match: { value: "s.orders" } }] },
      exact: true,
    });
    expect(server.requests[8]!.body).toEqual({ filter: { must: [{ key: "kind", match: { value: "table" } }] } });
    expect(server.violations).toEqual([]);
  });

  it("maps string ids to stable version-5 UUIDs", () => {
    const id = qdrantPointId("column:public.orders.amount");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(qdrantPointId("column:public.orders.amount")).toBe(id);
    expect(qdrantPointId("column:public.orders.amounts")).not.toBe(id);
  });

  it("tells a missing collection (404 naming the collection) from other failures", async () => {
    const store = createQdrantVectorStore({ url: server.url });
    await expect(store.count({ collection: "never_created" })).rejects.toBeInstanceOf(VectorCollectionNotFoundError);
    const oldServer = await startFakeQdrantServer({ withoutQueryApi: true });
    try {
      const old = createQdrantVectorStore({ url: oldServer.url });
      await old.ensureCollection({ collection: "x", dimensions: 2 });
      const failure = await old.search({ collection: "x", vector: [1, 0], limit: 1 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(VectorStoreError);
      expect(failure).not.toBeInstanceOf(VectorCollectionNotFoundError);
    } finally {
      await oldServer.close();
    }
  });

  it("accepts a collection created concurrently by another process with the same dimensions", async () => {
    const first = createQdrantVectorStore({ url: server.url });
    const second = createQdrantVectorStore({ url: server.url });
    await Promise.all([
      first.ensureCollection({ collection: "raced", dimensions: 3 }),
      second.ensureCollection({ collection: "raced", dimensions: 3 }),
    ]);
    expect(await first.count({ collection: "raced" })).toBe(0);
  });

  it("reports an unreachable server as a VectorStoreError", async () => {
    const store = createQdrantVectorStore({ url: "http://127.0.0.1:9", timeoutMs: 2_000 });
    await expect(store.ensureCollection({ collection: "x", dimensions: 2 })).rejects.toBeInstanceOf(VectorStoreError);
  });
});
