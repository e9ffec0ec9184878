import { DEFAULT_LSH_PARAMETERS, hashColumnSegment } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { ValueIndexStore } from "./value-index-store";

const county = { schema: "public", table: "schools", column: "County" };
const city = { schema: "public", table: "schools", column: "City" };

describe("ValueIndexStore (PGlite in memory)", () => {
  let metadata: MetadataStore;
  let store: ValueIndexStore;
  let dataSourceId: string;

  beforeAll(async () => {
    metadata = await openMetadataStore({ directory: "memory://" });
    store = new ValueIndexStore(metadata.database);
    dataSourceId = (await ensureDataSource(metadata.database, { url: "postgresql://u@h:5432/schools" })).id;
  });
  afterAll(async () => {
    await metadata?.close();
  });

  it("round-trips segments (values, band keys) and loads a searchable index", async () => {
    // More than one chunk (4,096 values) and some non-ASCII text.
    const many = Array.from({ length: 5_000 }, (_, index) => `Ville ${index} – Zürich`);
    const countySegment = hashColumnSegment(county, ["Alameda", "Alpine", "Los Ángeles"], DEFAULT_LSH_PARAMETERS);
    const citySegment = hashColumnSegment(city, ["San Francisco", "Oakland", ...many], DEFAULT_LSH_PARAMETERS);
    await store.saveColumn(dataSourceId, countySegment);
    await store.saveColumn(dataSourceId, citySegment, { truncated: true });
    await store.saveSkippedColumn(
      dataSourceId,
      { ...county, column: "CDSCode" },
      "primary key",
      DEFAULT_LSH_PARAMETERS,
    );

    const segments = await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS);
    expect(segments.map((segment) => segment.column.column)).toEqual(["City", "County"]);
    expect(segments[0]!.values).toEqual(citySegment.values);
    expect(Array.from(segments[0]!.bandKeys)).toEqual(Array.from(citySegment.bandKeys));
    expect(segments[1]!.values).toEqual(["Alameda", "Alpine", "Los Ángeles"]);
    const batched = [];
    for await (const segment of store.iterateSegments(dataSourceId, DEFAULT_LSH_PARAMETERS, 1)) batched.push(segment);
    expect(batched).toEqual(segments);

    const listed = await store.listColumns(dataSourceId);
    expect(
      listed.map((column) => [column.column.column, column.valueCount, column.truncated, column.skipReason]),
    ).toEqual([
      ["CDSCode", 0, false, "primary key"],
      ["City", 5_002, true, null],
      ["County", 3, false, null],
    ]);

    const index = await store.loadIndex(dataSourceId, DEFAULT_LSH_PARAMETERS);
    expect(index.size).toBe(5_005);
    expect(index.search({ keyword: "los angeles", readableColumns: "all", limit: 1 })[0]?.value).toBe("Los Ángeles");
    expect(index.search({ keyword: "Ville 4321 - Zurich", readableColumns: "all", limit: 1 })[0]?.value).toBe(
      "Ville 4321 – Zürich",
    );
  });

  it("rebuilds one column incrementally and leaves the others untouched", async () => {
    const before = await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS);
    await store.saveColumn(dataSourceId, hashColumnSegment(county, ["Butte", "Fresno"], DEFAULT_LSH_PARAMETERS));
    const after = await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS);
    expect(after.find((segment) => segment.column.column === "County")!.values).toEqual(["Butte", "Fresno"]);
    const cityBefore = before.find((segment) => segment.column.column === "City")!;
    const cityAfter = after.find((segment) => segment.column.column === "City")!;
    expect(cityAfter.values).toEqual(cityBefore.values);
    expect(Array.from(cityAfter.bandKeys)).toEqual(Array.from(cityBefore.bandKeys));
    const index = await store.loadIndex(dataSourceId, DEFAULT_LSH_PARAMETERS);
    expect(
      index.search({ keyword: "alameda", readableColumns: "all" }).map((candidate) => candidate.value),
    ).not.toContain("Alameda");
    expect(index.search({ keyword: "fresno", readableColumns: "all", limit: 1 })[0]?.value).toBe("Fresno");

    await store.deleteColumn(dataSourceId, county);
    expect(
      (await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS)).map((segment) => segment.column.column),
    ).toEqual(["City"]);
  });

  it("ignores segments hashed with other parameters (they need a rebuild)", async () => {
    expect(await store.loadSegments(dataSourceId, { bands: 8, rows: 2, seed: 1 })).toEqual([]);
  });
});
