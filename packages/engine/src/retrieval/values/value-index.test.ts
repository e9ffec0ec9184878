import { distance } from "fastest-levenshtein";
import { describe, expect, it } from "vitest";
import { bandKeys, candidateProbability, DEFAULT_LSH_PARAMETERS } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { gramHashes, jaccard } from "./shingles";
import { columnKey } from "./value-column";
import { ValueIndexBuilder } from "./value-index-builder";

const schools = { schema: "public", table: "schools", column: "County" };
const cities = { schema: "public", table: "schools", column: "City" };
const secrets = { schema: "hr", table: "employees", column: "full_name" };

function smallIndex() {
  const builder = new ValueIndexBuilder();
  builder.addColumn(schools, [
    "Alameda",
    "Alpine",
    "Amador",
    "Butte",
    "Fresno",
    "Los Angeles",
    "San Francisco",
    "San Mateo",
  ]);
  builder.addColumn(cities, [
    "San Francisco",
    "San Jose",
    "Oakland",
    "Fremont",
    "Alameda",
    "Santa Clara",
    "Sacramento",
  ]);
  builder.addColumn(secrets, ["Alan Meda", "Sandra Francis", "Oakley Smith"]);
  return builder.build();
}

/** Deterministic pseudo-random words (names and places) for the recall test. */
function syntheticValues(count: number): string[] {
  const syllables = [
    "an",
    "ber",
    "cal",
    "dor",
    "el",
    "fran",
    "gor",
    "hal",
    "ist",
    "jo",
    "ka",
    "lam",
    "mer",
    "no",
    "ost",
    "pra",
    "quin",
    "ros",
    "san",
    "ta",
    "ur",
    "vil",
    "wes",
    "xan",
    "yor",
    "zel",
  ];
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 8;
  };
  const values = new Set<string>();
  while (values.size < count) {
    const words = 1 + (next() % 3);
    const parts: string[] = [];
    for (let word = 0; word < words; word++) {
      let text = "";
      const length = 2 + (next() % 3);
      for (let syllable = 0; syllable < length; syllable++) text += syllables[next() % syllables.length];
      parts.push(text[0]!.toUpperCase() + text.slice(1));
    }
    values.add(parts.join(" "));
  }
  return [...values];
}

describe("shingles and MinHash", () => {
  it("normalizes case, width and whitespace", () => {
    expect(normalizeValue("  Alameda\t COUNTY ")).toBe("alameda county");
    expect(normalizeValue("ＡＢＣ")).toBe("abc");
  });

  it("computes exact Jaccard over padded 3-grams", () => {
    expect(jaccard(gramHashes("alameda"), gramHashes("alameda"))).toBe(1);
    // " al","ala","lam","ame","med","eda","da " are all in "alameda county" (14 grams).
    expect(jaccard(gramHashes("alameda"), gramHashes("alameda county"))).toBeCloseTo(7 / 14, 5);
    expect(jaccard(gramHashes("abc"), gramHashes("xyz"))).toBe(0);
  });

  it("is deterministic: the same grams always give the same band keys", () => {
    const grams = gramHashes("san francisco");
    expect(Array.from(bandKeys(grams, DEFAULT_LSH_PARAMETERS))).toEqual(
      Array.from(bandKeys(grams, DEFAULT_LSH_PARAMETERS)),
    );
    expect(bandKeys(grams, { bands: 4, rows: 2, seed: 1 })).not.toEqual(
      bandKeys(grams, { bands: 4, rows: 2, seed: 2 }),
    );
    // Fixed values, so a change of the hash family (which would invalidate persisted band keys) fails here.
    expect(Array.from(bandKeys(gramHashes("alameda"), { bands: 2, rows: 1, seed: 1 }))).toEqual([507735520, 126162606]);
    expect(Array.from(bandKeys(gramHashes("alameda"), { bands: 2, rows: 2, seed: 1 }))).toEqual([
      3987949236, 3058856929,
    ]);
  });

  it("has an S-curve that surfaces low-similarity matches", () => {
    expect(candidateProbability(0.5, DEFAULT_LSH_PARAMETERS)).toBeGreaterThan(0.998);
    expect(candidateProbability(0.3, DEFAULT_LSH_PARAMETERS)).toBeGreaterThan(0.85);
    expect(candidateProbability(0.05, DEFAULT_LSH_PARAMETERS)).toBeLessThan(0.1);
  });
});

describe("ValueIndex.search", () => {
  it("finds values despite case and partial keywords", () => {
    const index = smallIndex();
    const found = index.search({ keyword: "alameda county", readableColumns: "all", limit: 3 });
    expect(found[0]).toMatchObject({ value: "Alameda" });
    expect(found.map((candidate) => candidate.column.column).sort()).toContain("County");
  });

  it("finds values despite typos", () => {
    const index = smallIndex();
    expect(index.search({ keyword: "Sna Francisco", readableColumns: "all", limit: 1 })[0]?.value).toBe(
      "San Francisco",
    );
    expect(index.search({ keyword: "sacremento", readableColumns: "all", limit: 1 })[0]?.value).toBe("Sacramento");
    expect(index.search({ keyword: "OAKLAND", readableColumns: "all", limit: 1 })[0]?.value).toBe("Oakland");
  });

  it("never returns values of columns the role may not read (set or predicate)", () => {
    const index = smallIndex();
    const readable = new Set([columnKey(schools), columnKey(cities)]);
    for (const keyword of ["alan meda", "sandra francis", "oakley", "alameda", "san francisco"]) {
      for (const readableColumns of [readable, (column: { schema: string }) => column.schema === "public"]) {
        const found = index.search({ keyword, readableColumns, limit: 50, poolSize: 1000 });
        expect(found.every((candidate) => candidate.column.schema === "public")).toBe(true);
      }
    }
    // The same keyword does find the restricted value when its column is readable.
    expect(index.search({ keyword: "alan meda", readableColumns: "all", limit: 1 })[0]?.value).toBe("Alan Meda");
    // Restricted values do not take candidate slots: with only the public columns readable, results are all public.
    expect(index.search({ keyword: "sandra francis", readableColumns: readable, limit: 2 }).length).toBe(2);
  });

  it("recalls the brute-force best edit-distance match for ≥ 95% of typo'd keywords (fixed sample)", () => {
    const values = syntheticValues(20_000);
    const builder = new ValueIndexBuilder();
    for (let start = 0; start < values.length; start += 1_000) {
      builder.addColumn({ schema: "s", table: "t", column: `c${start / 1_000}` }, values.slice(start, start + 1_000));
    }
    const index = builder.build();
    expect(index.size).toBe(20_000);
    const normalizedValues = values.map(normalizeValue);
    let hits = 0;
    const samples = 200;
    for (let sample = 0; sample < samples; sample++) {
      const value = values[(sample * 97) % values.length]!;
      const position = 1 + (sample % Math.max(1, value.length - 2));
      const keyword = (value.slice(0, position) + value.slice(position + 1)).toLowerCase(); // one deletion
      const keywordNormalized = normalizeValue(keyword);
      let best = Number.POSITIVE_INFINITY;
      for (const candidate of normalizedValues) best = Math.min(best, distance(keywordNormalized, candidate));
      const found = index.search({ keyword, readableColumns: "all", limit: 10 });
      const foundBest = Math.min(
        ...found.map((candidate) => distance(keywordNormalized, normalizeValue(candidate.value))),
      );
      if (foundBest <= best) hits++;
    }
    expect(hits / samples).toBeGreaterThanOrEqual(0.95);
  });

  it("maps entries back to columns and reports its memory", () => {
    const index = smallIndex();
    expect(index.size).toBe(18);
    expect(index.columnIndexOf(0)).toBe(0);
    expect(index.columnIndexOf(8)).toBe(1);
    expect(index.columnIndexOf(17)).toBe(2);
    expect(index.valueAt(17)).toBe("Oakley Smith");
    expect(index.byteSize).toBeGreaterThan(0);
  });

  it("rejects a column added twice and segments hashed with other parameters", () => {
    const builder = new ValueIndexBuilder();
    builder.addColumn(schools, ["Alameda"]);
    expect(() => builder.addColumn(schools, ["Alpine"])).toThrow(/twice/);
    const other = new ValueIndexBuilder({ bands: 8, rows: 1, seed: 1 }).addColumn(cities, ["Oakland"]);
    expect(() => builder.addSegment(other)).toThrow(/hashed with/);
  });

  it("handles an empty index and empty keywords", () => {
    const empty = new ValueIndexBuilder().build();
    expect(empty.search({ keyword: "anything", readableColumns: "all" })).toEqual([]);
    expect(smallIndex().search({ keyword: "   ", readableColumns: "all" })).toEqual([]);
  });
});
