import { describe, expect, it } from "vitest";
import { createEmbeddedVectorStore } from "./embedded-vector-store";
import { runVectorStoreContract } from "./vector-store-contract";

runVectorStoreContract("embedded (in memory)", async () => ({ store: createEmbeddedVectorStore({ batchSize: 100 }) }));

describe("embedded vector store", () => {
  it("searches a 4,500 × 1,024 catalog in milliseconds", async () => {
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
    await store.search({ collection: "speed", vector: query, limit: 20 });
    const started = performance.now();
    const rounds = 20;
    let first = "";
    for (let round = 0; round < rounds; round++) {
      first = (await store.search({ collection: "speed", vector: query, limit: 20 }))[0]!.id;
    }
    const perQuery = (performance.now() - started) / rounds;
    expect(first).toBe("column:1234");
    // Typically 5-30 ms on the shared 2-core machine; the bound only catches pathological regressions.
    expect(perQuery).toBeLessThan(250);
    console.log(`embedded search over 4,500 × 1,024: ${perQuery.toFixed(2)} ms per query`);
  });
});
