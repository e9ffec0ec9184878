import { bandKeys, type LshParameters } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { gramHashes, jaccard } from "./shingles";
import type { KeywordCandidates, ValueCandidate } from "./value-candidate";
import type { ReadableColumns, ValueColumn } from "./value-column";

/** What a value search is asked for a question: its keywords, the columns the asking role may read, how many. */
export interface KeywordSearchOptions {
  readonly keywords: readonly string[];
  /** Columns the asking role may read; values of any other column are never returned. */
  readonly readableColumns: ReadableColumns;
  /** Candidates per keyword, best Jaccard first. Default 10 (CHESS's top 10). */
  readonly limit?: number;
  /** Values by number of colliding bands whose exact Jaccard is computed. Default 200. */
  readonly poolSize?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Fuzzy value retrieval (CHESS retrieve_entity, first stage) wherever the index lives: in this process (`ValueIndex`)
 * or in the metadata store (`StoredValueIndex` in @nlq/adapters, whose buckets are rows queried per keyword batch).
 * Both rank with `rankValueCandidates`, so they return the same candidates for the same LSH collisions.
 */
export interface ValueSearch {
  /** Candidates of each keyword, in keyword order. */
  searchKeywords(options: KeywordSearchOptions): Promise<KeywordCandidates[]>;
}

/** A value the LSH stage found for a keyword, before ranking: how many of its bands collided with the keyword's. */
export interface CollidingValue {
  readonly column: ValueColumn;
  readonly value: string;
  readonly collisions: number;
  /** Its place in the index (entry or value number): breaks ties of Jaccard, as `ValueIndex.search` does. */
  readonly order: number;
}

/**
 * The LSH stage's ranking, shared by every `ValueSearch`: `colliding` arrives most collisions first (ties in index
 * order); the first `poolSize` of readable columns get their exact 3-gram Jaccard with the keyword, and the best
 * `limit` by Jaccard are kept (ties by `order`), as `ValueIndex.search` ranks its postings.
 */
export function rankValueCandidates(
  keyword: string,
  colliding: Iterable<CollidingValue>,
  isReadable: (column: ValueColumn) => boolean,
  limit: number,
  poolSize: number,
): ValueCandidate[] {
  const queryGrams = gramHashes(normalizeValue(keyword));
  if (queryGrams.length === 0) return [];
  const scored: Array<{ order: number; candidate: ValueCandidate }> = [];
  for (const value of colliding) {
    if (scored.length >= Math.max(limit, poolSize)) break;
    if (!isReadable(value.column)) continue;
    scored.push({
      order: value.order,
      candidate: {
        column: value.column,
        value: value.value,
        jaccard: jaccard(queryGrams, gramHashes(normalizeValue(value.value))),
      },
    });
  }
  scored.sort((left, right) => right.candidate.jaccard - left.candidate.jaccard || left.order - right.order);
  return scored.slice(0, limit).map(({ candidate }) => candidate);
}

/** The buckets a keyword batch probes: for each keyword with 3-grams, its band number and band key (as int4). */
export interface KeywordBandProbes {
  readonly keywordNumbers: number[];
  readonly bands: number[];
  /** Band keys as signed 32-bit integers (PostgreSQL `int4`): the uint32 key's bits. */
  readonly keys: number[];
}

/** The band keys of each keyword (`keywordNumbers` index `keywords`), for an index stored as bucket rows. */
export function keywordBandProbes(keywords: readonly string[], parameters: LshParameters): KeywordBandProbes {
  const probes: KeywordBandProbes = { keywordNumbers: [], bands: [], keys: [] };
  keywords.forEach((keyword, keywordNumber) => {
    const grams = gramHashes(normalizeValue(keyword));
    if (grams.length === 0) return;
    bandKeys(grams, parameters).forEach((key, band) => {
      probes.keywordNumbers.push(keywordNumber);
      probes.bands.push(band);
      probes.keys.push(key | 0);
    });
  });
  return probes;
}
