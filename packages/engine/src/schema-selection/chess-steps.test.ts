import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { loadSettings } from "../config/settings";
import { createStepContext } from "../llm/step-context";
import { createRetriever } from "../retrieval/retrieve";
import { catalogTable } from "../testing/catalog-table";
import { mockTextModel } from "../testing/mock-text-model";
import { createChessSchemaSelector } from "./chess-schema-selector";
import { filterColumns } from "./chess-steps";

/** A model whose calls wait a little and count how many are in flight at once, and in what order steps began. */
function overlappingModel(answer: (step: string) => string) {
  let inFlight = 0;
  const seen = { most: 0, started: [] as string[] };
  const resolveModel = (step: string) => ({
    id: `mock:${step}`,
    scripted: false,
    model: mockTextModel(async () => {
      seen.started.push(step);
      inFlight += 1;
      seen.most = Math.max(seen.most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 40));
      inFlight -= 1;
      return answer(step);
    }),
  });
  return { seen, resolveModel };
}

const wide: Catalog = {
  tables: Array.from({ length: 6 }, (_, table) =>
    catalogTable(
      "public",
      `t${table}`,
      Array.from({ length: 20 }, (_, column) => `c${column}`),
    ),
  ),
};

describe("the CHESS steps' model rounds", () => {
  it("runs filter_column's batches at once, up to the concurrency, and keeps what they do not mark irrelevant", async () => {
    const { seen, resolveModel } = overlappingModel(() =>
      JSON.stringify({ columns: [{ column: "public.t0.c0", relevant: false }] }),
    );
    const context = createStepContext({
      question: "q",
      settings: loadSettings({ NLQ_CONCURRENCY: "3" }),
      resolveModel,
    });
    const kept = await filterColumns({ catalog: wide, context, batchSize: 40 });
    expect(seen.started).toHaveLength(3);
    expect(seen.most).toBe(3);
    expect(kept.get("public.t0")?.has("c0")).toBe(false);
    expect(kept.get("public.t5")?.size).toBe(20);
  });

  it("runs select_tables beside filter_column, and select_columns after both", async () => {
    const { seen, resolveModel } = overlappingModel((step) =>
      step === "filter-column"
        ? JSON.stringify({ columns: [] })
        : step === "select-tables"
          ? JSON.stringify({ chain_of_thought_reasoning: "", table_names: ["public.t1"] })
          : JSON.stringify({ chain_of_thought_reasoning: "", tables: [{ table: "public.t1", columns: ["c1"] }] }),
    );
    const context = createStepContext({
      question: "q",
      settings: loadSettings({ NLQ_CONCURRENCY: "2" }),
      resolveModel,
    });
    const selector = createChessSchemaSelector({
      steps: { extractKeywords: false, filterColumn: true, selectTables: true, selectColumns: true },
      maxFilterCalls: 1,
    });
    const selected = await selector.select({ catalog: wide, context });
    expect(seen.most).toBe(2);
    expect(seen.started.at(-1)).toBe("select-columns");
    expect(selected.catalog.tables.map((table) => table.name)).toEqual(["t1"]);
  });

  it("hallucinates CRUSH's schema beside keyword extraction on a large catalog, not after it", async () => {
    const { seen, resolveModel } = overlappingModel((step) =>
      step === "extract-keywords" ? JSON.stringify({ keywords: ["c1"] }) : JSON.stringify({ tables: [] }),
    );
    const context = createStepContext({ question: "q", settings: loadSettings({}), resolveModel });
    const retriever = createRetriever({
      largeCatalogColumns: 10,
      crush: async ({ context: crushContext }) => {
        await crushContext.runModelStep({
          step: "hallucinate-schema",
          schema: (await import("@nlq/prompts")).schemaHallucinationOutputSchema,
          system: "s",
          prompt: "p",
        });
        return new Map();
      },
    });
    await retriever.retrieve({ catalog: wide, context });
    expect(seen.started.sort()).toEqual(["extract-keywords", "hallucinate-schema"]);
    expect(seen.most).toBe(2);
  });
});
