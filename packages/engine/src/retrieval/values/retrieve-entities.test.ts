import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { MockEmbeddingModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { OfflineEmbeddingModel } from "../../embedding/offline-embedding-model";
import { retrieveEntities } from "./retrieve-entities";
import { ValueIndexBuilder } from "./value-index-builder";

/** A tiny deterministic embedder: letter frequencies (a–z), so spelling-close texts are close. */
function letterEmbedder(): EmbeddingModelV3 {
  return new MockEmbeddingModelV3({
    doEmbed: async ({ values }) => ({
      embeddings: values.map((text) => {
        const vector = new Array<number>(26).fill(0);
        for (const character of text.toLowerCase()) {
          const code = character.charCodeAt(0) - 97;
          if (code >= 0 && code < 26) vector[code]! += 1;
        }
        return vector;
      }),
      warnings: [],
    }),
  });
}

function schoolIndex() {
  const builder = new ValueIndexBuilder();
  builder.addColumn({ schema: "public", table: "schools", column: "School" }, [
    "Alameda High",
    "Alameda County Community",
    "Alameda County Opportunity",
    "Preschool",
  ]);
  builder.addColumn({ schema: "public", table: "schools", column: "County" }, ["Alameda", "Alpine", "Fresno"]);
  builder.addColumn({ schema: "public", table: "schools", column: "City" }, ["Alameda", "Oakland", "San Francisco"]);
  return builder.build();
}

describe("retrieveEntities", () => {
  it("keeps only the closest value per column, best first", async () => {
    const [result] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["Alameda County"],
      readableColumns: "all",
    });
    const byColumn = new Map(result!.matches.map((match) => [match.column.column, match.value]));
    expect(result!.matches).toHaveLength(3);
    expect(byColumn.get("School")).toBe("Alameda County Community");
    expect(byColumn.get("County")).toBe("Alameda");
    expect(byColumn.get("City")).toBe("Alameda");
    expect(result!.matches[0]!.value).toBe("Alameda County Community");
    const similarities = result!.matches.map((match) => match.editSimilarity);
    expect(similarities).toEqual([...similarities].sort((left, right) => right - left));
  });

  it("corrects typos and drops matches below the edit-similarity threshold", async () => {
    const [typo, unrelated] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["Sna Francisco", "Frisco Bay Area"],
      readableColumns: "all",
    });
    expect(typo!.matches[0]).toMatchObject({ value: "San Francisco", column: { column: "City" } });
    expect(unrelated!.matches.every((match) => match.editSimilarity >= 0.3)).toBe(true);
  });

  it("filters by embedding similarity, but keeps near-exact spellings", async () => {
    const model = letterEmbedder();
    const [result] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["alameda"],
      readableColumns: "all",
      embeddingModel: model,
      minEmbeddingSimilarity: 0.95,
      keepAboveEditSimilarity: 0.99,
    });
    // Only values whose letter profile is within cosine 0.95 of "alameda" survive: the exact ones.
    expect(result!.matches.map((match) => match.value)).toEqual(["Alameda", "Alameda"]);
    expect(result!.matches[0]!.embeddingSimilarity).toBeCloseTo(1, 5);
    const [lenient] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["alameda"],
      readableColumns: "all",
      embeddingModel: model,
      minEmbeddingSimilarity: 0.5,
    });
    expect(lenient!.matches.map((match) => match.column.column).sort()).toEqual(["City", "County", "School"]);
  });

  it("works with the built-in offline embedder and the default thresholds", async () => {
    const [county, typo] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["alameda county", "Sna Francisco"],
      readableColumns: "all",
      embeddingModel: new OfflineEmbeddingModel(),
    });
    expect(county!.matches.map((match) => match.value)).toEqual(["Alameda County Community", "Alameda", "Alameda"]);
    // Cosine ≈ 0.53 < 0.6 with this embedder, but the spelling is close enough (edit similarity 0.85 ≥ 0.8).
    expect(typo!.matches[0]).toMatchObject({ value: "San Francisco" });
    expect(typo!.matches[0]!.embeddingSimilarity).toBeLessThan(0.6);
  });

  it("returns nothing from unreadable columns", async () => {
    const [result] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["Alameda"],
      readableColumns: (column) => column.column === "School",
    });
    expect(result!.matches.map((match) => match.column.column)).toEqual(["School"]);
  });

  it("joins the live lookup's candidates to the index's, asking visibility only about the index's", async () => {
    const asked: string[] = [];
    const [result] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["Oaklnd"],
      readableColumns: "all",
      live: {
        catalog: { tables: [] },
        lookup: async () => [],
      },
      visibility: async (probes) => {
        asked.push(...probes.map((probe) => probe.value));
        return new Set();
      },
    });
    // The index's hit is hidden from the role; the (empty-catalog) live lookup is not even asked.
    expect(asked).toContain("Oakland");
    expect(result!.matches).toEqual([]);
    const [live] = await retrieveEntities({
      keywords: ["Missisauga"],
      readableColumns: "all",
      live: {
        catalog: {
          tables: [
            {
              schema: "public",
              name: "customer",
              kind: "table",
              comment: null,
              primaryKey: [],
              foreignKeys: [],
              columns: [],
            },
          ],
        },
        lookup: async ({ keywords }) =>
          keywords.map((keyword) => ({
            keyword,
            candidates: [
              { column: { schema: "public", table: "customer", column: "city" }, value: "Mississauga", jaccard: 0.7 },
            ],
          })),
      },
      visibility: async () => {
        throw new Error("live values were read by the asking role: not probed again");
      },
    });
    expect(live!.matches).toMatchObject([{ value: "Mississauga" }]);
  });

  it("reranks with a configured embedding model, and keeps edit distance alone when it cannot be reached", async () => {
    const unreachable = new MockEmbeddingModelV3({
      doEmbed: async () => {
        throw new Error("embedding service down");
      },
    });
    const [result] = await retrieveEntities({
      index: schoolIndex(),
      keywords: ["alameda"],
      readableColumns: "all",
      embeddingModel: unreachable,
      minEmbeddingSimilarity: 0.95,
      keepAboveEditSimilarity: 0.99,
    });
    expect(result!.matches.map((match) => match.column.column).sort()).toEqual(["City", "County", "School"]);
    expect(result!.matches.every((match) => match.embeddingSimilarity === undefined)).toBe(true);
  });
});
