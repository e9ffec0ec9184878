import { DEFAULT_LSH_PARAMETERS, hashColumnSegment } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { connectBackground } from "./connect-background";
import { servedDataSourceValueIndex } from "./served-value-index";
import { StoredBackgroundValueIndexes } from "./stored-background-value-index";
import { backgroundGenerationKey, publishedValueIndexGeneration } from "./value-index-generation";
import { acquireValueIndexLease } from "./value-index-lease";
import { ValueIndexStore } from "./value-index-store";

const county = { schema: "public", table: "schools", column: "County" };

describe("the value index a data source's questions get from the store", () => {
  let metadata: MetadataStore;
  let dataSourceId: string;

  beforeAll(async () => {
    metadata = await openMetadataStore({ directory: "memory://" });
    dataSourceId = (await ensureDataSource(metadata.database, { url: "postgresql://u@h:5432/served" })).id;
  });
  afterAll(async () => {
    await metadata?.close();
  });

  it("rebuilds an index stored before generations (chunks only) on first use, and again once a column changed", async () => {
    const store = new ValueIndexStore(metadata.database);
    // What an `nlq index` of before migration 0009 left: columns and chunks, no generation.
    await store.saveColumn(dataSourceId, hashColumnSegment(county, ["Alameda", "Fresno"], DEFAULT_LSH_PARAMETERS), {
      truncated: true,
    });
    const first = await servedDataSourceValueIndex(metadata.database, dataSourceId);
    expect(first.index).toBeUndefined(); // the live lookup serves meanwhile
    expect(first.rebuilding).toBeDefined();
    await first.rebuilding;
    const ready = await servedDataSourceValueIndex(metadata.database, dataSourceId);
    expect(ready.rebuilding).toBeUndefined();
    expect(ready.incompleteColumns).toEqual(new Set(['"public"."schools"."County"']));
    const [found] = await ready.index!.searchKeywords({ keywords: ["alameda"], readableColumns: "all", limit: 1 });
    expect(found!.candidates[0]?.value).toBe("Alameda");

    // A column re-indexed: the stale generation still serves while the new one is built, then the new one.
    await store.saveColumn(dataSourceId, hashColumnSegment(county, ["Butte"], DEFAULT_LSH_PARAMETERS));
    const stale = await servedDataSourceValueIndex(metadata.database, dataSourceId);
    expect(stale.index?.generationId).toBe(ready.index!.generationId);
    await stale.rebuilding;
    const fresh = await servedDataSourceValueIndex(metadata.database, dataSourceId);
    expect(fresh.index?.generationId).not.toBe(ready.index!.generationId);
    const [butte] = await fresh.index!.searchKeywords({ keywords: ["butte", "alameda"], readableColumns: "all" });
    expect(butte!.candidates[0]?.value).toBe("Butte");
  });

  it("leaves the rebuild to the process holding the lease", async () => {
    const other = await ensureDataSource(metadata.database, { url: "postgresql://u@h:5432/leased" });
    await new ValueIndexStore(metadata.database).saveColumn(
      other.id,
      hashColumnSegment(county, ["Alpine"], DEFAULT_LSH_PARAMETERS),
    );
    const lease = await acquireValueIndexLease(metadata.database, `data-source:${other.id}`, { holder: "another" });
    const served = await servedDataSourceValueIndex(metadata.database, other.id);
    expect(await served.rebuilding).toBeUndefined();
    expect(await publishedValueIndexGeneration(metadata.database, `data-source:${other.id}`)).toBeUndefined();
    await lease!.release();
  });
});

describe("background value indexes stored once per database and role", () => {
  let metadata: MetadataStore;
  let database: TestDatabase;

  beforeAll(async () => {
    metadata = await openMetadataStore({ directory: "memory://" });
    database = await createTestDatabase(
      "nlq_stored_background",
      `CREATE TABLE towns (name text NOT NULL); INSERT INTO towns SELECT 'Town ' || n FROM generate_series(1, 500) n;
       INSERT INTO towns VALUES ('Bad Münstereifel');`,
    );
  });
  afterAll(async () => {
    await metadata?.close();
    await database?.drop();
  });

  it("is read by one of two processes sharing the store, and served to both", async () => {
    const key = database.url;
    let connections = 0;
    const connect = () => {
      connections += 1;
      return connectBackground(database.url);
    };
    // Two replicas: two sets over the same store.
    const first = new StoredBackgroundValueIndexes(metadata.database);
    const second = new StoredBackgroundValueIndexes(metadata.database);
    expect((await first.use(key, connect)).status).toBe("building");
    expect((await second.use(key, connect)).status).toBe("building"); // the lease is the first's: no second read
    await Promise.all([first.settled(key), second.settled(key)]);
    expect(connections).toBe(1);
    const state = await second.use(key, connect);
    expect(state.status).toBe("ready");
    const [found] = await state.index!.searchKeywords({
      keywords: ["bad munstereifel"],
      readableColumns: "all",
      limit: 1,
    });
    expect(found!.candidates[0]?.value).toBe("Bad Münstereifel");
    expect(connections).toBe(1);
    expect(await publishedValueIndexGeneration(metadata.database, backgroundGenerationKey(key))).toBeDefined();
  });
});
