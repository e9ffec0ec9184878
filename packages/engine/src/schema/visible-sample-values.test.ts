import { describe, expect, it } from "vitest";
import type { Catalog, TableInfo } from "../catalog/catalog-types";
import { valueProbeKey } from "../retrieval/values/value-visibility-statement";
import { catalogTable } from "../testing/catalog-table";
import { keepVisibleSampleValues, sampleValueProbes, withoutSampleValues } from "./visible-sample-values";

function withSamples(name: string, samples: Record<string, string[]>, enumValues?: string[]): TableInfo {
  const table = catalogTable("public", name, Object.keys(samples));
  return {
    ...table,
    columns: table.columns.map((column) => ({
      ...column,
      sampleValues: samples[column.name],
      ...(enumValues ? { enumValues } : {}),
    })),
  };
}

const catalog: Catalog = {
  tables: [
    withSamples("account", { label: ["Own", "Long own label…", "HIDDEN"] }),
    withSamples("city", { name: ["Lisbon"] }),
    withSamples("mood", { state: [] }, ["happy", "sad"]),
  ],
};

describe("visible sample values", () => {
  it("probes shortened examples by prefix and the others exactly, for at most maxTables tables", () => {
    expect(sampleValueProbes(catalog)).toEqual([
      { schema: "public", table: "account", column: "label", value: "Own" },
      { schema: "public", table: "account", column: "label", value: "Long own label", match: "prefix" },
      { schema: "public", table: "account", column: "label", value: "HIDDEN" },
      { schema: "public", table: "city", column: "name", value: "Lisbon" },
    ]);
    expect(sampleValueProbes(catalog, { maxTables: 1 }).map((probe) => probe.table)).toEqual([
      "account",
      "account",
      "account",
    ]);
  });

  it("keeps only confirmed examples; unchecked ones are dropped, enum labels stay", () => {
    const confirmed = sampleValueProbes(catalog, { maxTables: 1 })
      .filter((probe) => probe.value !== "HIDDEN")
      .map(valueProbeKey);
    const kept = keepVisibleSampleValues(catalog, new Set(confirmed));
    expect(kept.tables.map((table) => table.columns[0]?.sampleValues)).toEqual([
      ["Own", "Long own label…"],
      undefined,
      undefined,
    ]);
    expect(kept.tables[2]?.columns[0]?.enumValues).toEqual(["happy", "sad"]);
    expect(JSON.stringify(withoutSampleValues(catalog))).not.toContain("sampleValues");
  });
});
