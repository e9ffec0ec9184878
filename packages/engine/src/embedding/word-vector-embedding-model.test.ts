import { embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { cosineSimilarity, dot } from "./vector-math";
import { vectorWords } from "./vector-words";
import { createWordVectorEmbeddingModel, wordVectorModelId } from "./word-vector-embedding-model";
import { createWordVectors, type WordVectors } from "./word-vectors";

/** A small table: each word's vector is a mix of a few "meaning" axes, so related words share axes. */
function smallTable(): WordVectors {
  const axes = ["person", "money", "place", "time", "count", "label"];
  const entries: Array<[string, Record<string, number>]> = [
    ["customer", { person: 1, money: 0.3 }],
    ["client", { person: 0.9, money: 0.4 }],
    ["invoice", { money: 1, time: 0.2 }],
    ["date", { time: 1 }],
    ["city", { place: 1 }],
    ["town", { place: 0.95, person: 0.1 }],
    ["name", { label: 1 }],
    ["first", { label: 0.5, count: 0.5 }],
    ["last", { label: 0.5, time: 0.5 }],
    ["driver", { person: 0.8, place: 0.3 }],
    ["id", { label: 0.7, count: 0.3 }],
    ["number", { count: 1 }],
    ["student", { person: 1, label: 0.1 }],
    ["lastname", { label: 0.2, person: 0.2 }],
  ];
  const vectors = new Float32Array(entries.length * axes.length);
  entries.forEach(([, weights], row) => {
    for (const [axis, weight] of Object.entries(weights)) vectors[row * axes.length + axes.indexOf(axis)] = weight;
  });
  return createWordVectors({
    source: "test-vectors@1",
    words: entries.map(([word]) => word),
    vectors,
    dimensions: axes.length,
  });
}

describe("word vectors", () => {
  it("holds unit rows and finds words by their lower-case spelling", () => {
    const table = smallTable();
    const row = table.rowOf("customer");
    expect(row).toBe(0);
    expect(dot(table.vectorAt(row), table.vectorAt(row))).toBeCloseTo(1, 6);
    expect(table.rowOf("nobody")).toBe(-1);
    expect(() => createWordVectors({ source: "x", words: ["a"], vectors: new Float32Array(3), dimensions: 2 })).toThrow(
      RangeError,
    );
  });

  it("splits identifiers, drops stop words, single letters and numbers, expands abbreviations", () => {
    const table = smallTable();
    const words = (text: string) => vectorWords(text, table, { rareRank: 12, partRank: 12 }).rows.map((row) => row);
    expect(words("customerCity")).toEqual([table.rowOf("customer"), table.rowOf("city")]);
    expect(words("the first_name of a x 2022")).toEqual([table.rowOf("first"), table.rowOf("name")]);
    expect(words("fname")).toEqual([table.rowOf("first"), table.rowOf("name")]);
    expect(words("stuid")).toEqual([table.rowOf("student"), table.rowOf("id")]);
    // Run-together words the table lacks, or holds only as rare ones (row 13 ≥ rareRank 12), split into common words.
    expect(words("driverid")).toEqual([table.rowOf("driver"), table.rowOf("id")]);
    expect(words("lastname")).toEqual([table.rowOf("last"), table.rowOf("name")]);
    expect(vectorWords("frpm city", table).unknown).toEqual(["frpm"]);
  });
});

describe("the trained offline embedder", () => {
  const table = smallTable();
  const model = (lexicalShare: number) =>
    createWordVectorEmbeddingModel({ source: "test-vectors@1", lexicalShare, loadVectors: async () => table });

  it("relates words that share no letters, which the lexical embedder cannot", async () => {
    const { embeddings } = await embedMany({
      model: model(0),
      values: ["customer", "client", "invoice date", "town", "city"],
    });
    expect(cosineSimilarity(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(0.9);
    expect(cosineSimilarity(embeddings[0]!, embeddings[2]!)).toBeLessThan(0.4);
    expect(cosineSimilarity(embeddings[3]!, embeddings[4]!)).toBeGreaterThan(0.9);
  });

  it("appends the lexical block at its share and keeps vectors unit length and equally long", async () => {
    const hybrid = model(0.3);
    const { embeddings } = await embedMany({ model: hybrid, values: ["customer city", "frpm", "the of"] });
    expect(new Set(embeddings.map((vector) => vector.length))).toEqual(new Set([6 + 2048]));
    expect(dot(embeddings[0]!, embeddings[0]!)).toBeCloseTo(1, 6);
    const semantic = embeddings[0]!.slice(0, 6);
    expect(dot(semantic, semantic)).toBeCloseTo(0.7, 6);
    // No word vector for "frpm": its spelling alone finds it.
    expect(embeddings[1]!.slice(0, 6).every((value) => value === 0)).toBe(true);
    expect(dot(embeddings[1]!, embeddings[1]!)).toBeCloseTo(1, 6);
    expect(embeddings[2]!.every((value) => value === 0)).toBe(true);
    expect(hybrid.modelId).toBe(wordVectorModelId("test-vectors@1", 0.3));
    expect(model(0).modelId).not.toBe(hybrid.modelId);
  });

  it("loads the vectors once and retries a failed load", async () => {
    let loads = 0;
    const flaky = createWordVectorEmbeddingModel({
      source: "test-vectors@1",
      loadVectors: async () => {
        loads += 1;
        if (loads === 1) throw new Error("not yet");
        return table;
      },
    });
    await expect(flaky.doEmbed({ values: ["city"] })).rejects.toThrow("not yet");
    await flaky.doEmbed({ values: ["city"] });
    await flaky.doEmbed({ values: ["town"] });
    expect(loads).toBe(2);
  });

  it("weights words by the catalog's term weights", async () => {
    const weighted = createWordVectorEmbeddingModel({
      source: "test-vectors@1",
      lexicalShare: 0,
      termWeights: new Map([
        ["customer", 5],
        ["name", 0.1],
      ]),
      loadVectors: async () => table,
    });
    const { embeddings } = await embedMany({ model: weighted, values: ["customer name", "customer", "name"] });
    expect(cosineSimilarity(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(
      cosineSimilarity(embeddings[0]!, embeddings[2]!),
    );
  });
});
