import { cosineSimilarity, type EmbeddingModel, embedMany } from "ai";
import type { Catalog } from "../../catalog/catalog-types";
import { editSimilarity } from "./edit-similarity";
import type { KeywordCandidates, LiveValueLookup } from "./live-value-lookup";
import { columnKey, type ReadableColumns, readablePredicate, type ValueColumn } from "./value-column";
import type { ValueCandidate } from "./value-index";
import type { ValueSearch } from "./value-search";
import { valueProbeKey } from "./value-visibility-statement";
import type { ValueVisibility } from "./visible-values";

/** A database value that matches a keyword (CHESS retrieve_entity output). */
export interface EntityMatch {
  readonly column: ValueColumn;
  readonly value: string;
  /** 1 − normalized Levenshtein distance between keyword and value, case-insensitive. */
  readonly editSimilarity: number;
  /** Exact 3-gram Jaccard similarity. */
  readonly jaccard: number;
  /** Cosine similarity of the embeddings, when an embedding model was given. */
  readonly embeddingSimilarity?: number;
}

export interface KeywordEntities {
  readonly keyword: string;
  /** At most one match per column (the closest), best edit similarity first. */
  readonly matches: readonly EntityMatch[];
}

export interface RetrieveEntitiesOptions {
  /** The data source's value index (in this process or in the metadata store). Default none. */
  readonly index?: ValueSearch;
  /**
   * The bounded live lookup on the asking session (`createLiveValueLookup`) over `catalog`'s columns: the columns no
   * index holds (no index yet, or columns it truncated). Its values were read by the asking role itself, so
   * `visibility` is not asked about them; its candidates join the index's. Default none.
   */
  readonly live?: { readonly lookup: LiveValueLookup; readonly catalog: Catalog };
  readonly keywords: readonly string[];
  /** Columns the asking role may read; nothing from other columns is returned. */
  readonly readableColumns: ReadableColumns;
  /** Optional embedding model for the semantic filter (any AI SDK `EmbeddingModel`). Default none. */
  readonly embeddingModel?: EmbeddingModel;
  /** LSH candidates kept per keyword by exact Jaccard before reranking. Default 10 (CHESS). */
  readonly candidatesPerKeyword?: number;
  /** Values by collision count whose exact Jaccard is computed, see `ValueSearchOptions.poolSize`. Default 200. */
  readonly poolSize?: number;
  /** Matches below this edit similarity are dropped. Default 0.3 (CHESS's edit-distance threshold). */
  readonly minEditSimilarity?: number;
  /**
   * With an embedding model, matches below this cosine similarity are dropped unless their edit similarity is
   * at least `keepAboveEditSimilarity`. Default 0.6 (CHESS, text-embedding-3-small); tune it per embedder.
   */
  readonly minEmbeddingSimilarity?: number;
  /** A match this close in spelling survives the embedding filter whatever its embedding says. Default 0.8. */
  readonly keepAboveEditSimilarity?: number;
  /**
   * Which candidate values the asking role can see in a row (`createValueVisibility` on its session). Candidates it
   * cannot see are dropped before anything else looks at them (the embedding model, the per-column choice). Required
   * for an index built by another role (`nlq index`); default none: every candidate of a readable column is kept.
   */
  readonly visibility?: ValueVisibility;
  readonly abortSignal?: AbortSignal;
}

/**
 * CHESS retrieve_entity: for each keyword, LSH candidates from the readable columns, top N by Jaccard,
 * then an optional embedding filter, then per column only the value with the smallest edit distance.
 */
export async function retrieveEntities(options: RetrieveEntitiesOptions): Promise<KeywordEntities[]> {
  const minEditSimilarity = options.minEditSimilarity ?? 0.3;
  const readable = readablePredicate(options.readableColumns);
  const withEdit = (searched: readonly KeywordCandidates[]) =>
    searched.map(({ keyword, candidates }) => ({
      keyword,
      candidates: candidates
        .filter((candidate) => readable(candidate.column))
        .map((candidate) => ({ ...candidate, editSimilarity: editSimilarity(keyword, candidate.value) }))
        .filter((candidate) => candidate.editSimilarity >= minEditSimilarity),
    }));
  const indexed = withEdit(await searchIndex(options));
  const visible =
    options.visibility && indexed.some(({ candidates }) => candidates.length > 0)
      ? await keepVisible(indexed, options.visibility, options.abortSignal)
      : indexed;
  const live = withEdit(await searchLive(options));
  const perKeyword = visible.map(({ keyword, candidates }, position) => ({
    keyword,
    candidates: [...candidates, ...(live[position]?.candidates ?? [])],
  }));
  const embeddingSimilarities = options.embeddingModel
    ? await embedAndCompare(options.embeddingModel, perKeyword, options.abortSignal).catch((error: unknown) => {
        // The rerank only refines: an unreachable embedding service leaves edit distance alone to decide.
        if (options.abortSignal?.aborted) throw error;
        return undefined;
      })
    : undefined;
  const minEmbedding = options.minEmbeddingSimilarity ?? 0.6;
  const keepAbove = options.keepAboveEditSimilarity ?? 0.8;
  return perKeyword.map(({ keyword, candidates }, keywordIndex) => {
    const best = new Map<string, EntityMatch>();
    candidates.forEach((candidate, candidateIndex) => {
      const embeddingSimilarity = embeddingSimilarities?.[keywordIndex]?.[candidateIndex];
      if (
        embeddingSimilarity !== undefined &&
        embeddingSimilarity < minEmbedding &&
        candidate.editSimilarity < keepAbove
      )
        return;
      const match: EntityMatch = {
        ...candidate,
        ...(embeddingSimilarity === undefined ? {} : { embeddingSimilarity }),
      };
      const key = columnKey(candidate.column);
      const current = best.get(key);
      if (!current || compareMatches(match, current) < 0) best.set(key, match);
    });
    return { keyword, matches: [...best.values()].sort(compareMatches) };
  });
}

/** LSH candidates from the index (none without one). */
async function searchIndex(options: RetrieveEntitiesOptions): Promise<KeywordCandidates[]> {
  if (!options.index) return options.keywords.map((keyword) => ({ keyword, candidates: [] }));
  return options.index.searchKeywords({
    keywords: options.keywords,
    readableColumns: options.readableColumns,
    limit: options.candidatesPerKeyword ?? 10,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
}

/** The live lookup's candidates, in keyword order (none without one). */
async function searchLive(options: RetrieveEntitiesOptions): Promise<readonly KeywordCandidates[]> {
  if (!options.live || options.live.catalog.tables.length === 0) return [];
  return options.live.lookup({
    catalog: options.live.catalog,
    keywords: options.keywords,
    candidatesPerKeyword: options.candidatesPerKeyword ?? 10,
    abortSignal: options.abortSignal,
  });
}

/** Drops the candidates the asking role cannot see in any row (one visibility check for all keywords). */
async function keepVisible<CANDIDATE extends ValueCandidate>(
  perKeyword: ReadonlyArray<{ keyword: string; candidates: readonly CANDIDATE[] }>,
  visibility: ValueVisibility,
  abortSignal: AbortSignal | undefined,
): Promise<Array<{ keyword: string; candidates: CANDIDATE[] }>> {
  const probe = (candidate: ValueCandidate) => ({ ...candidate.column, value: candidate.value });
  const visible = await visibility(
    perKeyword.flatMap(({ candidates }) => candidates.map(probe)),
    { abortSignal },
  );
  return perKeyword.map(({ keyword, candidates }) => ({
    keyword,
    candidates: candidates.filter((candidate) => visible.has(valueProbeKey(probe(candidate)))),
  }));
}

/** Better first: higher edit similarity, then higher embedding similarity, then higher Jaccard, then shorter value. */
function compareMatches(left: EntityMatch, right: EntityMatch): number {
  return (
    right.editSimilarity - left.editSimilarity ||
    (right.embeddingSimilarity ?? 0) - (left.embeddingSimilarity ?? 0) ||
    right.jaccard - left.jaccard ||
    left.value.length - right.value.length
  );
}

async function embedAndCompare(
  model: EmbeddingModel,
  perKeyword: ReadonlyArray<{ keyword: string; candidates: readonly ValueCandidate[] }>,
  abortSignal: AbortSignal | undefined,
): Promise<number[][]> {
  const texts: string[] = [];
  for (const { keyword, candidates } of perKeyword)
    texts.push(keyword, ...candidates.map((candidate) => candidate.value));
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({ model, values: texts, abortSignal, maxRetries: 0 });
  let position = 0;
  return perKeyword.map(({ candidates }) => {
    const keywordEmbedding = embeddings[position++]!;
    return candidates.map(() => cosineSimilarity(keywordEmbedding, embeddings[position++]!));
  });
}
