import { runVectorStoreContract } from "@nlq/adapters/testing";
import { describe, expect, it } from "vitest";
import { createEmbeddedVectorStore } from "./embedded-vector-store";

runVectorStoreContract("embedded (in memory)", async () => ({ store: createEmbeddedVectorStore({ batchSize: 100 }) }));

describe("embedded vector store", () => {
  it("finds the exact nearest point in a 4,500 × 1,024 catalog", async () => {
    const store = createEmbeddedVectorStore();
    const dimensions = 1_024;
    await store.ensureCollection({ collection: "speed", dimensions });
    const points = Array.from({ length: 4_500 }, (_, number) => ({
      id: `column:${number}`,
      vector: Array.from({ length: dimensions }, (_, position) => Math.sin(number * 31 + position * 7)),
      payload: { kind: "column" as const, table: `t${number % 300}` },
    }));
    await store.upsert({ collection: "speed", points });
    const query = points[1_234]!.vector;
    const results = await store.search({ collection: "speed", vector: query, limit: 20 });
    expect(results[0]!.id).toBe("column:1234");
    expect(results[0]!.score).toBeCloseTo(1, 5);
    expect(results).toHaveLength(20);
    // Speed is measured by benchmarks (bench/), never asserted in tests.
  });
});
