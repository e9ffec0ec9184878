import { DEFAULT_LSH_PARAMETERS, hashColumnSegment, ValueIndexBuilder } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { StoredValueIndex } from "./stored-value-index";
import { publishedValueIndexGeneration, publishValueIndexGeneration } from "./value-index-generation";
import { acquireValueIndexLease } from "./value-index-lease";

const county = { schema: "public", table: "schools", column: "County" };
const city = { schema: "public", table: "schools", column: "City" };
const many = Array.from({ length: 3_000 }, (_, index) => `Ville ${index} – Zürich`);
const segments = () => [
  hashColumnSegment(county, ["Alameda", "Alpine", "Los Ángeles", "San Mateo"], DEFAULT_LSH_PARAMETERS),
  hashColumnSegment(city, ["San Francisco", "Oakland", "Alameda", ...many], DEFAULT_LSH_PARAMETERS),
];
const keywords = ["los angeles", "alameda", "Ville 1234 - Zurich", "san francsico", "oaklnd", "zzzz", ""];

describe("a value index served by the metadata store (PGlite in memory)", () => {
  let metadata: MetadataStore;

  beforeAll(async () => {
    metadata = await openMetadataStore({ directory: "memory://" });
  });
  afterAll(async () => {
    await metadata?.close();
  });

  it("finds what the in-memory index finds, ranked the same, from the readable columns only", async () => {
    const lease = (await acquireValueIndexLease(metadata.database, "test:same", { holder: "a" }))!;
    const generation = await publishValueIndexGeneration(metadata.database, {
      indexKey: "test:same",
      parameters: DEFAULT_LSH_PARAMETERS,
      segments: segments(),
      lease,
    });
    await lease.release();
    const stored = new StoredValueIndex(metadata.database, generation, DEFAULT_LSH_PARAMETERS);
    const builder = new ValueIndexBuilder(DEFAULT_LSH_PARAMETERS);
    for (const segment of segments()) builder.addSegment(segment);
    const inMemory = builder.build();
    expect(stored.valueCount).toBe(inMemory.size);
    for (const readableColumns of ["all", new Set(['"public"."schools"."City"'])] as const) {
      const fromStore = await stored.searchKeywords({ keywords, readableColumns });
      const fromMemory = await inMemory.searchKeywords({ keywords, readableColumns });
      expect(fromStore).toEqual(fromMemory);
    }
    const [angeles, alameda] = await stored.searchKeywords({
      keywords: ["los angeles", "alameda"],
      readableColumns: new Set(['"public"."schools"."City"']),
      limit: 1,
    });
    expect(angeles!.candidates.map((candidate) => candidate.value)).not.toContain("Los Ángeles");
    expect(alameda!.candidates).toEqual([{ column: city, value: "Alameda", jaccard: 1 }]);
  });

  it("finds the same when buckets are grouped in small batches (several rows a bucket), and stores values verbatim", async () => {
    const key = "test:batches";
    const awkward = hashColumnSegment(
      { schema: "public", table: "notes", column: "text" },
      ['He said "hi"', "back\\slash", "{a,b}", "NULL", " padded ", "", "ümlaut, comma"],
      DEFAULT_LSH_PARAMETERS,
    );
    const lease = (await acquireValueIndexLease(metadata.database, key, { holder: "a" }))!;
    const generation = await publishValueIndexGeneration(metadata.database, {
      indexKey: key,
      parameters: DEFAULT_LSH_PARAMETERS,
      segments: [...segments(), awkward],
      lease,
      valuesPerBucketBatch: 500,
    });
    await lease.release();
    const builder = new ValueIndexBuilder(DEFAULT_LSH_PARAMETERS);
    for (const segment of [...segments(), awkward]) builder.addSegment(segment);
    const inMemory = builder.build();
    const stored = new StoredValueIndex(metadata.database, generation, DEFAULT_LSH_PARAMETERS);
    expect(await stored.searchKeywords({ keywords, readableColumns: "all" })).toEqual(
      await inMemory.searchKeywords({ keywords, readableColumns: "all" }),
    );
    const rows = async (statement: string) =>
      (await metadata.database.execute(statement as never)) as unknown as { rows: Record<string, unknown>[] };
    const split = await rows(
      `SELECT count(*)::int AS buckets FROM (SELECT 1 FROM value_index_buckets WHERE generation_id = ${generation.id}
         GROUP BY band, bucket_key HAVING count(*) > 1) split`,
    );
    expect(split.rows[0]!.buckets).toBeGreaterThan(0);
    const values = await rows(
      `SELECT value FROM value_index_values WHERE generation_id = ${generation.id} ORDER BY value_number`,
    );
    expect(values.rows.map((row) => row.value)).toEqual(
      Array.from({ length: inMemory.size }, (_, entry) => inMemory.valueAt(entry)),
    );
    expect(values.rows.slice(-awkward.values.length).map((row) => row.value)).toEqual(awkward.values);
  });

  it("rejects a bucket batch size out of range and a segment hashed with other parameters", async () => {
    const lease = (await acquireValueIndexLease(metadata.database, "test:rejects", { holder: "a" }))!;
    const publish = (options: { valuesPerBucketBatch?: number; bands?: number }) =>
      publishValueIndexGeneration(metadata.database, {
        indexKey: "test:rejects",
        parameters: DEFAULT_LSH_PARAMETERS,
        segments: [hashColumnSegment(county, ["Alameda"], { ...DEFAULT_LSH_PARAMETERS, bands: options.bands ?? 24 })],
        lease,
        valuesPerBucketBatch: options.valuesPerBucketBatch,
      });
    await expect(publish({ valuesPerBucketBatch: 0 })).rejects.toThrow(/valuesPerBucketBatch must be an integer/);
    await expect(publish({ valuesPerBucketBatch: 2 ** 21 + 1 })).rejects.toThrow(/from 1 to 2097152/);
    await expect(publish({ bands: 16 })).rejects.toThrow(/does not fit minhash3-b24/);
    expect(await publishedValueIndexGeneration(metadata.database, "test:rejects")).toBeUndefined();
    await lease.release();
  });

  it("publishes a new generation atomically: readers see the old one until then, and the old one is deleted", async () => {
    const key = "test:generations";
    const lease = (await acquireValueIndexLease(metadata.database, key, { holder: "a" }))!;
    const first = await publishValueIndexGeneration(metadata.database, {
      indexKey: key,
      parameters: DEFAULT_LSH_PARAMETERS,
      segments: [hashColumnSegment(county, ["Alameda"], DEFAULT_LSH_PARAMETERS)],
      lease,
    });
    let seenWhileBuilding: number | undefined;
    async function* slowSegments() {
      yield hashColumnSegment(county, ["Fresno"], DEFAULT_LSH_PARAMETERS);
      seenWhileBuilding = (await publishedValueIndexGeneration(metadata.database, key))?.id;
      yield hashColumnSegment(city, ["Oakland"], DEFAULT_LSH_PARAMETERS);
    }
    const second = await publishValueIndexGeneration(metadata.database, {
      indexKey: key,
      parameters: DEFAULT_LSH_PARAMETERS,
      segments: slowSegments(),
      lease,
    });
    await lease.release();
    expect(seenWhileBuilding).toBe(first.id);
    expect((await publishedValueIndexGeneration(metadata.database, key))?.id).toBe(second.id);
    const remaining = await metadata.database.execute(
      `SELECT (SELECT count(*) FROM value_index_values WHERE generation_id = ${first.id})::int AS values,
              (SELECT count(*) FROM value_index_buckets WHERE generation_id = ${first.id})::int AS buckets,
              (SELECT count(*) FROM value_index_generations WHERE index_key = '${key}')::int AS generations` as never,
    );
    expect((remaining as unknown as { rows: unknown[] }).rows).toEqual([{ values: 0, buckets: 0, generations: 1 }]);
    const stored = new StoredValueIndex(metadata.database, second, DEFAULT_LSH_PARAMETERS);
    const [found] = await stored.searchKeywords({ keywords: ["fresno"], readableColumns: "all", limit: 1 });
    expect(found!.candidates[0]?.value).toBe("Fresno");
  });

  it("gives a lease to one holder at a time, and to another once it expired; a builder that lost it publishes nothing", async () => {
    const key = "test:lease";
    const first = await acquireValueIndexLease(metadata.database, key, { holder: "first", ttlMilliseconds: 1_000 });
    expect(first).toBeDefined();
    expect(await acquireValueIndexLease(metadata.database, key, { holder: "second", ttlMilliseconds: 1_000 })).toBe(
      undefined,
    );
    // The first holder dies (its heartbeat stops): once its lease expired, the second takes over.
    await first!.release(); // stops the heartbeat and gives it up; then make an expired lease by hand
    await metadata.database.execute(
      `INSERT INTO value_index_leases (index_key, holder, expires_at) VALUES ('${key}', 'dead', now() - interval '1 second')` as never,
    );
    const second = await acquireValueIndexLease(metadata.database, key, { holder: "second", ttlMilliseconds: 60_000 });
    expect(second?.holder).toBe("second");
    // The dead holder's half-built generation never publishes: its lease is gone.
    const stale = { indexKey: key, holder: "dead", signal: new AbortController().signal, release: async () => {} };
    await expect(
      publishValueIndexGeneration(metadata.database, {
        indexKey: key,
        parameters: DEFAULT_LSH_PARAMETERS,
        segments: [hashColumnSegment(county, ["Alameda"], DEFAULT_LSH_PARAMETERS)],
        lease: stale,
      }),
    ).rejects.toThrow(/lease/);
    expect(await publishedValueIndexGeneration(metadata.database, key)).toBeUndefined();
    await second!.release();
  });

  it("aborts a build whose lease was taken from it (its heartbeat finds the row gone)", async () => {
    const key = "test:lost";
    const lease = (await acquireValueIndexLease(metadata.database, key, {
      holder: "builder",
      ttlMilliseconds: 1_000,
    }))!;
    expect(lease.signal.aborted).toBe(false);
    await metadata.database.execute(`DELETE FROM value_index_leases WHERE index_key = '${key}'` as never);
    const deadline = Date.now() + 30_000;
    while (!lease.signal.aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lease.signal.aborted).toBe(true);
    expect(String(lease.signal.reason)).toMatch(/taken over/);
    await lease.release();
  });
});
