import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadOfflineWordVectors } from "./offline-word-vectors";
import { readWordVectorCache, wordVectorCacheFileName, writeWordVectorCache } from "./word-vector-cache";
import { parseWordVectorPackage, wordVectorSource } from "./word-vector-package";
import { WordVectorsError } from "./word-vectors-error";

/** A file in the package's format: header, words, then `"word":[v…, norm, index]` entries and the unknown vector. */
function packageJson(entries: ReadonlyArray<[string, number[]]>): string {
  const dimensions = entries[0]![1].length;
  const vectors = entries
    .map(([word, values], index) => `${JSON.stringify(word)}:[${[...values, 1.5, index].join(",")}]`)
    .join(",");
  return (
    `{"precision":8,"l2NormIndex":${dimensions},"wordIndex":${dimensions + 1},"size":${entries.length},` +
    `"dimensions":${dimensions},"words":${JSON.stringify(entries.map(([word]) => word))},"vectors":{${vectors}},` +
    `"unkVector":[${new Array(dimensions).fill(0).join(",")},-1]}`
  );
}

const entries: Array<[string, number[]]> = [
  ["the", [0.1, 0.2, 0.3]],
  [",", [0, 0, 1]],
  ['"', [1, 0, 0]],
  [":[", [0.5, 0.5, 0]],
  ["city", [-0.25, 2.5, 1e-7]],
];

describe("the word-vector package and its cache", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "nlq-word-vectors-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("streams the package's JSON entry by entry, punctuation words included", async () => {
    const file = path.join(directory, "vectors.json");
    await writeFile(file, packageJson(entries));
    const parsed = await parseWordVectorPackage(file);
    expect(parsed.words).toEqual(entries.map(([word]) => word));
    expect(parsed.dimensions).toBe(3);
    expect(Array.from(parsed.vectors.subarray(12, 15))).toEqual([-0.25, 2.5, Math.fround(1e-7)]);
  });

  it("refuses a file that is not the package's format", async () => {
    const file = path.join(directory, "broken.json");
    await writeFile(file, packageJson(entries).replace('"size":5', '"size":6'));
    await expect(parseWordVectorPackage(file)).rejects.toThrow(WordVectorsError);
  });

  it("writes a cache that reads back the same, and is stale for another source file", async () => {
    const file = path.join(directory, "vectors.json");
    await writeFile(file, packageJson(entries));
    const parsed = await parseWordVectorPackage(file);
    const cache = path.join(directory, "cache", wordVectorCacheFileName(wordVectorSource));
    const identity = { source: wordVectorSource, sourceBytes: 1234 };
    await writeWordVectorCache(cache, identity, parsed);
    const read = await readWordVectorCache(cache, identity);
    expect(read?.words).toEqual(parsed.words);
    expect(Array.from(read!.vectors)).toEqual(Array.from(parsed.vectors));
    expect(await readWordVectorCache(cache, { ...identity, sourceBytes: 1235 })).toBeUndefined();
    expect(await readWordVectorCache(path.join(directory, "absent.f32"), identity)).toBeUndefined();
    const bytes = await readFile(cache);
    await writeFile(cache, bytes.subarray(0, bytes.length - 4));
    await expect(readWordVectorCache(cache, identity)).rejects.toThrow(WordVectorsError);
  });

  it("builds the cache on first use, reads it afterwards, and skips a folder it cannot write", async () => {
    const file = path.join(directory, "vectors.json");
    await writeFile(file, packageJson(entries));
    const location = { directory, file, bytes: (await stat(file)).size };
    const builds: string[] = [];
    const cacheDirectory = path.join(directory, "built");
    const vectors = await loadOfflineWordVectors({
      location,
      cacheDirectory,
      onBuild: (message) => builds.push(message),
    });
    expect(vectors.size).toBe(5);
    expect(vectors.rowOf("city")).toBe(4);
    expect(builds).toHaveLength(1);
    expect(builds[0]).toContain(cacheDirectory);
    await stat(path.join(cacheDirectory, wordVectorCacheFileName(wordVectorSource)));
    // Same process, same cache: the same vectors, not read again.
    expect(await loadOfflineWordVectors({ location, cacheDirectory })).toBe(vectors);
    // Another "process" (a fresh key: another folder listing) reads the file without building.
    const again = await loadOfflineWordVectors({
      location: { ...location, directory: path.join(directory, "other") },
      cacheDirectory,
      onBuild: (message) => builds.push(message),
    });
    expect(builds).toHaveLength(1);
    expect(Array.from(again.vectorAt(4))).toEqual(Array.from(vectors.vectorAt(4)));
    // A cache folder below a file cannot be created: the vectors are still used, and the message says so.
    await writeFile(path.join(directory, "a-file"), "");
    const unwritable = await loadOfflineWordVectors({
      location,
      cacheDirectory: path.join(directory, "a-file", "cache"),
      onBuild: (message) => builds.push(message),
    });
    expect(unwritable.size).toBe(5);
    expect(builds.at(-1)).toContain("no folder could hold it");
  });
});
