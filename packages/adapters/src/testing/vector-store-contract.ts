/**
 * The shared contract suite every vector store backend runs from its own test file:
 *   runVectorStoreContract("embedded", async () => ({ store: createEmbeddedVectorStore() }));
 * Not a test file itself (no `.test.ts`): it registers vitest tests when called.
 */

import type { VectorPayload, VectorPoint, VectorStore } from "@nlq/engine";
import { seededRandom, VectorCollectionNotFoundError, VectorDimensionError } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

export type VectorStoreUnderTest = {
  readonly store: VectorStore;
  /** Called once after the suite (stop servers, close databases). Default: `store.close()` only. */
  readonly cleanup?: () => Promise<void>;
};

export function runVectorStoreContract(backend: string, open: () => Promise<VectorStoreUnderTest>): void {
  describe(`vector store contract: ${backend}`, () => {
    let underTest: VectorStoreUnderTest;
    let store: VectorStore;
    let collectionCounter = 0;
    const runId = `${process.pid}_${Date.now().toString(36)}`;
    const newCollection = () => `contract_${runId}_${++collectionCounter}`;

    beforeAll(async () => {
      underTest = await open();
      store = underTest.store;
    });
    afterAll(async () => {
      await store.close();
      await underTest.cleanup?.();
    });

    it("creates a collection idempotently and refuses other dimensions", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 3 });
      await store.ensureCollection({ collection, dimensions: 3 });
      expect(await store.count({ collection })).toBe(0);
      await expect(store.ensureCollection({ collection, dimensions: 4 })).rejects.toBeInstanceOf(VectorDimensionError);
    });

    it("returns the nearest points by cosine similarity, best first, with exact scores", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 3 });
      await store.upsert({
        collection,
        points: [
          point("column:public.orders.amount", [1, 0, 0], { kind: "column", table: "public.orders" }),
          point("column:public.orders.placed_at", [1, 1, 0], { kind: "column", table: "public.orders" }),
          point("table:public.orders", [0, 1, 0], { kind: "table", table: "public.orders" }),
          point("column:public.users.name", [-1, 0, 0], { kind: "column", table: "public.users" }),
        ],
      });
      const hits = await store.search({ collection, vector: [2, 0.2, 0], limit: 3 });
      expect(hits.map((hit) => hit.id)).toEqual([
        "column:public.orders.amount",
        "column:public.orders.placed_at",
        "table:public.orders",
      ]);
      expect(hits[0]!.score).toBeCloseTo(cosine([2, 0.2, 0], [1, 0, 0]), 5);
      expect(hits[1]!.score).toBeCloseTo(cosine([2, 0.2, 0], [1, 1, 0]), 5);
      expect(hits[2]!.score).toBeCloseTo(cosine([2, 0.2, 0], [0, 1, 0]), 5);
      expect(hits[0]!.payload).toEqual({ kind: "column", table: "public.orders" });
      const all = await store.search({ collection, vector: [1, 0, 0], limit: 10 });
      expect(all).toHaveLength(4);
      expect(all[3]!.id).toBe("column:public.users.name");
      expect(all[3]!.score).toBeCloseTo(-1, 5);
      expect(await store.search({ collection, vector: [1, 0, 0], limit: 0 })).toEqual([]);
    });

    it("filters by kind, by table and by a list of tables", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 2 });
      await store.upsert({
        collection,
        points: [
          point("t:a", [1, 0], { kind: "table", table: "s.a" }),
          point("c:a.x", [1, 0.1], { kind: "column", table: "s.a" }),
          point("c:b.y", [1, 0.2], { kind: "column", table: "s.b" }),
          point("v:b.y:1", [1, 0.3], { kind: "value", table: "s.b", column: "y", value: "Paris" }),
          point("c:c.z", [1, 0.4], { kind: "column", table: "s.c" }),
        ],
      });
      const ids = async (filter: Parameters<VectorStore["search"]>[0]["filter"]) =>
        (await store.search({ collection, vector: [1, 0], limit: 10, filter })).map((hit) => hit.id);
      expect(await ids({ kind: "column" })).toEqual(["c:a.x", "c:b.y", "c:c.z"]);
      expect(await ids({ table: "s.b" })).toEqual(["c:b.y", "v:b.y:1"]);
      expect(await ids({ tables: ["s.a", "s.c"] })).toEqual(["t:a", "c:a.x", "c:c.z"]);
      expect(await ids({ kind: "column", tables: ["s.a", "s.b"] })).toEqual(["c:a.x", "c:b.y"]);
      expect(await ids({ kind: "value", table: "s.b" })).toEqual(["v:b.y:1"]);
      expect(await ids({ tables: [] })).toEqual([]);
      expect(await store.count({ collection, filter: { kind: "column" } })).toBe(3);
      expect(await store.count({ collection, filter: { tables: ["s.b", "s.c"] } })).toBe(3);
    });

    it("replaces a point upserted again under the same id, vector and payload", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 2 });
      await store.upsert({ collection, points: [point("p", [1, 0], { kind: "column", table: "t", note: "old" })] });
      await store.upsert({ collection, points: [point("p", [0, 1], { kind: "table", table: "t", note: "new" })] });
      expect(await store.count({ collection })).toBe(1);
      const [hit] = await store.search({ collection, vector: [0, 1], limit: 1 });
      expect(hit!.id).toBe("p");
      expect(hit!.score).toBeCloseTo(1, 5);
      expect(hit!.payload).toEqual({ kind: "table", table: "t", note: "new" });
    });

    it("round-trips arbitrary JSON payload fields and arbitrary string ids", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 2 });
      const payload: VectorPayload = {
        kind: "value",
        table: "Sales.Orders",
        column: "Ship City",
        value: "Zürich ' \" \\ 🚀",
        tokens: ["zu", "ri"],
        stats: { distinct: 12, nullable: true, ratio: 0.25 },
      };
      const id = "value:Sales.Orders.Ship City:Zürich 🚀";
      await store.upsert({ collection, points: [point(id, [0.3, 0.4], payload)] });
      const [hit] = await store.search({ collection, vector: [3, 4], limit: 5 });
      expect(hit).toEqual({ id, score: expect.closeTo(1, 5), payload });
    });

    it("deletes by ids (ignoring unknown ids) and by filter", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 2 });
      await store.upsert({
        collection,
        points: [
          point("a", [1, 0], { kind: "column", table: "t1" }),
          point("b", [1, 1], { kind: "column", table: "t2" }),
          point("c", [0, 1], { kind: "value", table: "t2" }),
          point("d", [1, 2], { kind: "table", table: "t3" }),
        ],
      });
      await store.delete({ collection, ids: ["a", "missing"] });
      expect(await store.count({ collection })).toBe(3);
      await store.delete({ collection, filter: { table: "t2" } });
      expect(await store.count({ collection })).toBe(1);
      expect((await store.search({ collection, vector: [1, 0], limit: 5 })).map((hit) => hit.id)).toEqual(["d"]);
    });

    it("upserts many points in batches", async () => {
      const collection = newCollection();
      const dimensions = 8;
      await store.ensureCollection({ collection, dimensions });
      const points = Array.from({ length: 1_234 }, (_, number) =>
        point(`column:${number}`, randomVector(dimensions, number + 1), {
          kind: "column",
          table: `t${number % 7}`,
        }),
      );
      await store.upsert({ collection, points });
      expect(await store.count({ collection })).toBe(1_234);
      expect(await store.count({ collection, filter: { table: "t3" } })).toBe(
        points.filter((p) => p.payload.table === "t3").length,
      );
    });

    it("agrees with a brute-force reference on random data", async () => {
      const collection = newCollection();
      const dimensions = 16;
      await store.ensureCollection({ collection, dimensions });
      const points = Array.from({ length: 300 }, (_, number) =>
        point(`p${number}`, randomVector(dimensions, 1_000 + number), {
          kind: number % 3 === 0 ? "table" : "column",
          table: `t${number % 5}`,
        }),
      );
      await store.upsert({ collection, points });
      for (let query = 0; query < 5; query++) {
        const vector = randomVector(dimensions, 9_000 + query);
        const filter = query % 2 === 0 ? undefined : { kind: "column" as const, tables: ["t1", "t2", "t4"] };
        const expected = points
          .filter(
            (p) => filter === undefined || (p.payload.kind === filter.kind && filter.tables.includes(p.payload.table)),
          )
          .map((p) => ({ id: p.id, score: cosine(vector, Array.from(p.vector)) }))
          .sort((left, right) => right.score - left.score)
          .slice(0, 10);
        const hits = await store.search({ collection, vector, limit: 10, filter });
        expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
        for (const [rank, hit] of hits.entries()) expect(hit.score).toBeCloseTo(expected[rank]!.score, 4);
      }
    });

    it("keeps collections apart", async () => {
      const first = newCollection();
      const second = newCollection();
      await store.ensureCollection({ collection: first, dimensions: 2 });
      await store.ensureCollection({ collection: second, dimensions: 3 });
      await store.upsert({ collection: first, points: [point("same-id", [1, 0], { kind: "table", table: "a" })] });
      await store.upsert({ collection: second, points: [point("same-id", [0, 0, 1], { kind: "table", table: "b" })] });
      expect((await store.search({ collection: first, vector: [1, 0], limit: 1 }))[0]!.payload.table).toBe("a");
      expect((await store.search({ collection: second, vector: [0, 0, 1], limit: 1 }))[0]!.payload.table).toBe("b");
    });

    it("rejects vectors of the wrong length", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 3 });
      await expect(
        store.upsert({ collection, points: [point("x", [1, 2], { kind: "table", table: "t" })] }),
      ).rejects.toBeInstanceOf(VectorDimensionError);
      await expect(store.search({ collection, vector: [1, 2, 3, 4], limit: 1 })).rejects.toBeInstanceOf(
        VectorDimensionError,
      );
    });

    it("drops a collection; later use reports it missing; dropping twice is fine", async () => {
      const collection = newCollection();
      await store.ensureCollection({ collection, dimensions: 2 });
      await store.upsert({ collection, points: [point("x", [1, 0], { kind: "table", table: "t" })] });
      await store.dropCollection({ collection });
      await store.dropCollection({ collection });
      await expect(store.search({ collection, vector: [1, 0], limit: 1 })).rejects.toBeInstanceOf(
        VectorCollectionNotFoundError,
      );
      await expect(store.count({ collection })).rejects.toBeInstanceOf(VectorCollectionNotFoundError);
      await store.ensureCollection({ collection, dimensions: 5 });
      expect(await store.count({ collection })).toBe(0);
    });
  });
}

function point(id: string, vector: number[], payload: VectorPayload): VectorPoint {
  return { id, vector, payload };
}

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, position) => {
    dot += value * right[position]!;
    leftNorm += value * value;
    rightNorm += right[position]! * right[position]!;
  });
  return dot / Math.sqrt(leftNorm * rightNorm);
}

/** Deterministic pseudo-random vector so failures reproduce. */
function randomVector(dimensions: number, seed: number): number[] {
  const next = seededRandom(seed);
  return Array.from({ length: dimensions }, () => next() - 0.5);
}
