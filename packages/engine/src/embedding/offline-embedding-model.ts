import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result } from "@ai-sdk/provider";
import { addHashedFeature, normalizeInPlace } from "./feature-hashing";
import { contentPieces, contentTerms, stemWord } from "./word-pieces";

/** Options of the built-in offline embedder. */
export interface OfflineEmbeddingOptions {
  /** Length of every vector. Default 2048. */
  readonly dimensions?: number;
  /** Smallest character n-gram (over `<term>`, word-boundary marked). Default 2. */
  readonly minimumNgram?: number;
  /** Largest character n-gram. Default 4. */
  readonly maximumNgram?: number;
  /** Share of the whole-word block in the final vector; the n-gram block gets the rest. Default 0.6. */
  readonly wordShare?: number;
  /**
   * Weight of affix features: every prefix (≥ 3 letters) and suffix (≥ 2 letters) of a word of 6+ letters is also
   * added as a (stemmed) word, so run-together identifiers such as `driverid` or `favoritecount` meet `driver`, `id`,
   * `favorite` and `count`. The weight is spread over the word's affixes. Default 0.5; 0 turns it off.
   */
  readonly affixWeight?: number;
  /**
   * Optional weight per stemmed term (e.g. an inverse document frequency from `termWeightsFromTexts`).
   * Unknown terms get `unknownTermWeight`. Default: every term weighs 1.
   */
  readonly termWeights?: ReadonlyMap<string, number>;
  /** Weight of a term missing from `termWeights`. Default: the largest weight in `termWeights`, or 1. */
  readonly unknownTermWeight?: number;
}

/** Identifies the offline embedder in logs and traces. */
export const offlineEmbeddingModelId = "hashed-ngrams-v1";

/**
 * A deterministic embedding model that needs no weights and no network: hashed whole-word features of stemmed
 * identifier word pieces plus hashed, word-boundary-marked character n-grams, L2-normalised. It implements the
 * AI SDK's `EmbeddingModelV3`, so `embed`/`embedMany` from `ai` accept it like any provider's model.
 */
export class OfflineEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "nlq.builtin";
  readonly modelId = offlineEmbeddingModelId;
  readonly maxEmbeddingsPerCall = Number.POSITIVE_INFINITY;
  readonly supportsParallelCalls = true;
  readonly dimensions: number;
  private readonly minimumNgram: number;
  private readonly maximumNgram: number;
  private readonly wordShare: number;
  private readonly affixWeight: number;
  private readonly termWeights: ReadonlyMap<string, number> | undefined;
  private readonly unknownTermWeight: number;

  constructor(options: OfflineEmbeddingOptions = {}) {
    this.dimensions = options.dimensions ?? 2048;
    this.minimumNgram = options.minimumNgram ?? 2;
    this.maximumNgram = options.maximumNgram ?? 4;
    this.wordShare = options.wordShare ?? 0.6;
    this.affixWeight = options.affixWeight ?? 0.5;
    this.termWeights = options.termWeights;
    this.unknownTermWeight =
      options.unknownTermWeight ?? (options.termWeights ? Math.max(1, ...options.termWeights.values()) : 1);
  }

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    options.abortSignal?.throwIfAborted();
    let tokens = 0;
    const embeddings = options.values.map((value) => {
      tokens += contentTerms(value).length;
      return this.embedText(value);
    });
    return { embeddings, usage: { tokens }, warnings: [] };
  }

  /** Synchronous embedding of one text (what `doEmbed` does for each value). */
  embedText(text: string): number[] {
    const words = new Float64Array(this.dimensions);
    const ngrams = new Float64Array(this.dimensions);
    for (const [piece, term] of contentPieces(text)) {
      const weight = this.termWeights ? (this.termWeights.get(term) ?? this.unknownTermWeight) : 1;
      addHashedFeature(words, `w:${term}`, weight);
      if (this.affixWeight > 0 && piece.length >= 6 && !/[0-9]/.test(piece)) {
        const affixes: string[] = [];
        for (let cut = 3; cut <= piece.length - 2; cut++) {
          affixes.push(stemWord(piece.slice(0, cut)), stemWord(piece.slice(cut)));
        }
        const affixWeight = (this.affixWeight * weight) / Math.sqrt(affixes.length);
        for (const affix of affixes) if (affix !== term) addHashedFeature(words, `w:${affix}`, affixWeight);
      }
      const marked = `<${term}>`;
      const grams: string[] = [];
      for (let size = this.minimumNgram; size <= this.maximumNgram; size++) {
        for (let start = 0; start + size <= marked.length; start++) grams.push(marked.slice(start, start + size));
      }
      const gramWeight = weight / Math.sqrt(Math.max(1, grams.length));
      for (const gram of grams) addHashedFeature(ngrams, `g:${gram}`, gramWeight);
    }
    normalizeInPlace(words);
    normalizeInPlace(ngrams);
    const combined = new Float64Array(this.dimensions);
    const wordScale = Math.sqrt(this.wordShare);
    const ngramScale = Math.sqrt(1 - this.wordShare);
    for (let position = 0; position < this.dimensions; position++) {
      combined[position] = wordScale * (words[position] ?? 0) + ngramScale * (ngrams[position] ?? 0);
    }
    return Array.from(normalizeInPlace(combined));
  }
}

/** The built-in offline embedder with the given options. */
export function createOfflineEmbeddingModel(options: OfflineEmbeddingOptions = {}): OfflineEmbeddingModel {
  return new OfflineEmbeddingModel(options);
}

/**
 * Inverse-document-frequency weights of the stemmed terms of `texts` (e.g. every column's text of a catalog):
 * `log(1 + N / df)`. Pass them as `termWeights` so frequent words like `id` or `name` count less.
 */
export function termWeightsFromTexts(texts: Iterable<string>): Map<string, number> {
  const documentFrequency = new Map<string, number>();
  let documents = 0;
  for (const text of texts) {
    documents++;
    for (const term of new Set(contentTerms(text))) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const weights = new Map<string, number>();
  for (const [term, frequency] of documentFrequency) weights.set(term, Math.log(1 + documents / frequency));
  return weights;
}
