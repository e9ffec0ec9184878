import { describe, expect, it } from "vitest";
import { createOfflineEmbeddingModel } from "../../embedding/offline-embedding-model";
import { createEmbeddedVectorStore } from "../../vector-store/embedded-vector-store";
import { embedTexts } from "../crush/schema-retriever";
import { columnPointId, tablePointId } from "./catalog-collection";
import { retrieveContext } from "./retrieve-context";

describe("retrieve_context", () => {
  it("returns the nearest column and table descriptions for the question and keywords, readable tables only", async () => {
    const embeddingModel = createOfflineEmbeddingModel();
    const vectorStore = createEmbeddedVectorStore();
    const elements = [
      {
        id: columnPointId("public.singer", "country"),
        kind: "column" as const,
        table: "public.singer",
        column: "country",
        text: "singer.country: home country of the singer",
      },
      {
        id: columnPointId("public.stadium", "capacity"),
        kind: "column" as const,
        table: "public.stadium",
        column: "capacity",
        text: "stadium.capacity: number of seats",
      },
      {
        id: columnPointId("secret.salary", "amount"),
        kind: "column" as const,
        table: "secret.salary",
        column: "amount",
        text: "salary.amount: singer country salary",
      },
      { id: tablePointId("public.singer"), kind: "table" as const, table: "public.singer", text: "singer: performers" },
    ];
    const vectors = await embedTexts(
      embeddingModel,
      elements.map((element) => element.text),
    );
    await vectorStore.ensureCollection({ collection: "test", dimensions: vectors[0]!.length });
    await vectorStore.upsert({
      collection: "test",
      points: elements.map(({ id, ...payload }, index) => ({ id, vector: vectors[index]!, payload })),
    });
    const hits = await retrieveContext({
      vectorStore,
      collection: "test",
      embeddingModel,
      question: "Which country is each singer from?",
      keywords: ["country", "singer"],
      limitPerProbe: 2,
      readableTables: new Set(["public.singer", "public.stadium"]),
    });
    expect(hits[0]).toMatchObject({ kind: "column", table: "public.singer", column: "country" });
    expect(hits.some((hit) => hit.kind === "table" && hit.table === "public.singer")).toBe(true);
    expect(hits.some((hit) => hit.table === "secret.salary")).toBe(false);
    await vectorStore.close();
  });
});
