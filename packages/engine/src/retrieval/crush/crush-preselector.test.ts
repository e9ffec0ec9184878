import { describe, expect, it } from "vitest";
import type { Catalog } from "../../catalog/catalog-types";
import { loadSettings } from "../../config/settings";
import { createOfflineEmbeddingModel } from "../../embedding/offline-embedding-model";
import { ConfigurationError } from "../../errors";
import { createStepContext } from "../../llm/step-context";
import { schemaSelectionPresets, schemaSelectionStepsFrom } from "../../schema-selection/schema-selection-steps";
import { catalogTable } from "../../testing/catalog-table";
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
