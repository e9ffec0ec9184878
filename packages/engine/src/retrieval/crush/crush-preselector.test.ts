import { describe, expect, it } from "vitest";
import type { Catalog } from "../../catalog/catalog-types";
import { schemaSelectionPresets, schemaSelectionStepsFrom } from "../../config/schema-selection-steps";
import { loadSettings } from "../../config/settings";
import type { PipelineEvent } from "../../contract/events";
import { createOfflineEmbeddingModel } from "../../embedding/offline-embedding-model";
import { CancelledError } from "../../errors/cancelled-error";
import { ConfigurationError } from "../../errors/configuration-error";
import { createStepContext } from "../../llm/step-context";
import { catalogTable } from "../../testing/catalog-table";
import { mockTextModel } from "../../testing/mock-text-model";
import { createCatalogContextIndex } from "../context/catalog-context-index";
import { catalogSchemaColumns, createCatalogSchemaRetriever, createCrushPreselector } from "./crush-preselector";

const catalog: Catalog = {
  tables: [
    catalogTable("music", "singer", ["singer_id", "name", "country"]),
    catalogTable("music", "concert", ["concert_id", "singer_id", "venue"], {
      foreignKeys: [
        {
          name: "f",
          columns: ["singer_id"],
          referencedSchema: "music",
          referencedTable: "singer",
          referencedColumns: ["singer_id"],
        },
      ],
    }),
    catalogTable("bikes", "station", ["station_id", "name", "latitude", "longitude"]),
    catalogTable("school", "student", ["student_id", "first_name", "age"]),
  ],
};

describe("CRUSH preselector and in-process context index", () => {
  it("maps catalog foreign keys to column links", () => {
    const { columns, links } = catalogSchemaColumns(catalog);
    expect(columns[4]).toEqual({ database: "music", table: "concert", column: "singer_id", description: undefined });
    expect(links).toEqual([{ from: 4, to: 0 }]);
  });

  it("preselects the columns a hallucinated schema points at", async () => {
    const retriever = await createCatalogSchemaRetriever(catalog, createOfflineEmbeddingModel());
    const preselect = createCrushPreselector({
      retriever,
      budget: 3,
      hallucinate: async () => ["Station(name, latitude)"],
    });
    const context = createStepContext({
      question: "Names of stations with a latitude below 37.5?",
      settings: loadSettings({}),
    });
    const selection = await preselect({ catalog, keywords: [], context });
    expect([...selection.keys()]).toEqual(["bikes.station"]);
    expect([...selection.get("bikes.station")!]).toEqual(expect.arrayContaining(["name", "latitude"]));
  });

  it("drops picks the asking role cannot read: tables and columns outside the question's catalog", async () => {
    // The retriever covers the whole catalog (built once per data source); this role reads bikes.station without
    // latitude, and not school.student at all.
    const retriever = await createCatalogSchemaRetriever(catalog, createOfflineEmbeddingModel());
    const readable: Catalog = {
      tables: [catalogTable("bikes", "station", ["station_id", "name", "longitude"]), catalog.tables[0]!],
    };
    const preselect = createCrushPreselector({
      retriever,
      budget: 6,
      hallucinate: async () => ["Station(name, latitude)", "Student(first_name, age)"],
    });
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question: "Names of stations with a latitude below 37.5 and students older than 20?",
      settings: loadSettings({}),
      onEvent: (event) => events.push(event),
    });
    const selection = await preselect({ catalog: readable, keywords: [], context });
    const everything = await createCrushPreselector({
      retriever,
      budget: 6,
      hallucinate: async () => ["Station(name, latitude)", "Student(first_name, age)"],
    })({
      catalog,
      keywords: [],
      context: createStepContext({ question: context.question, settings: loadSettings({}) }),
    });
    // Unrestricted, CRUSH picks the unreadable ones; restricted, they are gone and the event counts what is left.
    expect(everything.get("school.student")?.size).toBeGreaterThan(0);
    expect(everything.get("bikes.station")?.has("latitude")).toBe(true);
    expect(selection.has("school.student")).toBe(false);
    expect(selection.get("bikes.station")?.has("latitude")).toBe(false);
    expect(selection.get("bikes.station")?.has("name")).toBe(true);
    const kept = [...selection.values()].reduce((total, columns) => total + columns.size, 0);
    expect(events.at(-1)).toEqual({ type: "crush-end", hallucinated: expect.any(Array), columns: kept });
  });

  it("falls back to no picks when the hallucination fails, and says why in crush-end", async () => {
    const retriever = await createCatalogSchemaRetriever(catalog, createOfflineEmbeddingModel());
    const preselect = createCrushPreselector({ retriever });
    const cases = [
      // A model whose output is not the hallucination schema (bad output → ModelOutputError).
      { resolveModel: () => ({ model: mockTextModel("no idea"), id: "mock:model", scripted: false }), reason: /./ },
      // A model call that fails (a scripted fixture without the step throws ModelCallError the same way).
      {
        resolveModel: () => ({
          model: mockTextModel(() => {
            throw new Error("connection refused");
          }),
          id: "mock:model",
          scripted: false,
        }),
        reason: /connection refused/,
      },
      // No model configured at all.
      { resolveModel: undefined, reason: /no language model is configured for step "hallucinate-schema"/ },
    ];
    for (const testCase of cases) {
      const events: PipelineEvent[] = [];
      const context = createStepContext({
        question: "Names of stations?",
        settings: loadSettings({}),
        ...(testCase.resolveModel ? { resolveModel: testCase.resolveModel } : {}),
        onEvent: (event) => events.push(event),
      });
      const selection = await preselect({ catalog, keywords: [], context });
      expect(selection.size).toBe(0);
      const end = events.find((event) => event.type === "crush-end");
      expect(end).toMatchObject({
        hallucinated: [],
        columns: 0,
        fallbackReason: expect.stringMatching(testCase.reason),
      });
    }
  });

  it("does not swallow a cancellation", async () => {
    const retriever = await createCatalogSchemaRetriever(catalog, createOfflineEmbeddingModel());
    const preselect = createCrushPreselector({
      retriever,
      hallucinate: async () => {
        throw new CancelledError();
      },
    });
    const context = createStepContext({ question: "Names of stations?", settings: loadSettings({}) });
    await expect(preselect({ catalog, keywords: [], context })).rejects.toThrow(CancelledError);
  });

  it("finds descriptions of tables and columns in process", async () => {
    const index = await createCatalogContextIndex(catalog, createOfflineEmbeddingModel());
    const hits = await index.retrieve({ question: "How old is each student?", keywords: ["age"], limitPerProbe: 2 });
    expect(hits.some((hit) => hit.kind === "column" && hit.table === "school.student" && hit.column === "age")).toBe(
      true,
    );
    expect(hits.some((hit) => hit.kind === "table" && hit.table === "school.student")).toBe(true);
  });

  it("reads steps from a preset or a list", () => {
    expect(schemaSelectionStepsFrom(undefined)).toEqual(schemaSelectionPresets.balanced);
    expect(schemaSelectionStepsFrom("fast")).toEqual(schemaSelectionPresets.fast);
    expect(schemaSelectionStepsFrom("extract-keywords, select-columns")).toEqual({
      extractKeywords: true,
      filterColumn: false,
      selectTables: false,
      selectColumns: true,
    });
  });

  it("refuses an unknown step or preset name instead of ignoring it", () => {
    expect(() => schemaSelectionStepsFrom("extract-keywords, bogus")).toThrow(ConfigurationError);
    expect(() => schemaSelectionStepsFrom("balancd")).toThrow(/NLQ_SCHEMA_SELECTION.*balancd/);
  });
});
