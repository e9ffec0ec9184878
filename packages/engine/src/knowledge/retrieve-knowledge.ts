import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { KnowledgeEntry } from "../contract/knowledge";
import { cosineSimilarity, type Vector } from "../embedding/vector-math";
import { questionWords } from "../examples/similar-examples";
import { embedTexts } from "../retrieval/crush/schema-retriever";

export interface RetrieveKnowledgeOptions {
  /** The entries to choose from (already readable by the asking role; descriptions are not retrieved, but shown). */
  readonly entries: readonly KnowledgeEntry[];
  readonly question: string;
  /** The user's hint, searched with the question. Default: none. */
  readonly hint?: string;
  /** The question's keywords (CHESS extract_keywords, or the heuristic ones). */
  readonly keywords: readonly string[];
  /**
   * The embedding model of retrieval (`NLQ_EMBEDDING_MODEL`, the offline embedder by default). Default: none
   * (keywords only).
   */
  readonly embeddingModel?: EmbeddingModelV3;
  /** Most entries returned. Default `defaultKnowledgeLimit` (8). */
  readonly limit?: number;
  readonly abortSignal?: AbortSignal;
}

/** One retrieved entry and why. */
export interface RetrievedKnowledge {
  readonly entry: KnowledgeEntry;
  /** Word overlap with the question, its hint and keywords, 0..1 (1: the entry's name is a phrase of the question). */
  readonly lexical: number;
  /** Highest cosine similarity of the entry to the question or a keyword (0 without an embedding model). */
  readonly semantic: number;
  /** `lexical + semanticWeight × semantic`: the order they are returned in. */
  readonly score: number;
}

/** Most entries a question carries by default. */
export const defaultKnowledgeLimit = 8;
/** An entry sharing at least this much of its words with the question qualifies on words alone. */
const lexicalThreshold = 0.2;
/** Entries each probe (the question, each keyword) adds by embedding similarity alone, as CHESS retrieve_context. */
const entriesPerProbe = 2;
/**
 * A probe adds an entry by similarity alone only when it is at least this similar (unrelated texts score 0–0.1 under
 * the offline embedder, related ones 0.25–0.7)…
 */
const semanticFloor = 0.2;
/** …and at least this share of the probe's best similarity (embedders whose unrelated texts score higher). */
const semanticShareOfBest = 0.75;
/** How much the embedding similarity counts beside the word overlap when ranking. */
const semanticWeight = 0.5;
/**
 * Conventions stated briefly ("Truncate date to month for aggregation", "Amounts are in cents") share one word with a
 * question at most, so overlap and similarity rank them below long entries sharing many; each costs a few tokens. Up to
 * this many rules of at most `shortRuleWords` words sharing a content word with what was asked join the entries beyond
 * `limit` (best score first).
 */
const shortRulesBeyondLimit = 3;
const shortRuleWords = 16;

/** The text an entry is embedded and matched by: `name: text` (and its SQL, whose column names are words too). */
export function knowledgeEntryText(entry: Pick<KnowledgeEntry, "name" | "text" | "sql">): string {
  return [`${entry.name}: ${entry.text}`, entry.sql ?? ""].join(" ").trim();
}

function normalizedPhrase(text: string): string {
  return ` ${(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ")} `;
}

/**
 * The phrases a name is asked by: the name itself, without the counter that tells two entries of one name apart
 * (`ASP (3)`), and each side of an expansion in brackets (`ASP (average selling price)`: `ASP`, `average selling
 * price`).
 */
export function nameAliases(name: string): string[] {
  const uncounted = name.replace(/\s*\(\d+\)\s*$/, "").trim();
  const aliases = [name, uncounted];
  const expansion = /^(.+?)\s*\(([^()]+)\)\s*$/.exec(uncounted);
  if (expansion) aliases.push(expansion[1]!, expansion[2]!);
  return [...new Set(aliases.map(normalizedPhrase).filter((alias) => alias.trim() !== ""))];
}

/**
 * Word overlap of an entry with what was asked: 1 when its name, or one of its aliases (`nameAliases`), appears as a
 * phrase in the question (or hint); else 0.6 × the share of the name's content words asked for + 0.4 × the share of
 * the asked words its text holds.
 */
function lexicalScore(entry: KnowledgeEntry, asked: ReadonlySet<string>, askedPhrase: string): number {
  if (nameAliases(entry.name).some((alias) => askedPhrase.includes(alias))) return 1;
  const nameWords = questionWords(entry.name);
  const textWords = questionWords(knowledgeEntryText(entry));
  if (asked.size === 0) return 0;
  let named = 0;
  for (const word of nameWords) if (asked.has(word)) named += 1;
  let covered = 0;
  for (const word of asked) if (textWords.has(word)) covered += 1;
  return 0.6 * (nameWords.size === 0 ? 0 : named / nameWords.size) + 0.4 * (covered / asked.size);
}

/**
 * CHESS's retrieve_context over the knowledge base: the entries that fit the question, by keywords and by embedding.
 * An entry qualifies when its words overlap what was asked (the question, the hint and the extracted keywords: its
 * name as a phrase of the question, or enough shared content words), or when it is among the two most similar entries
 * to the question or to one keyword under the embedding model (and similar enough: at least 0.2, and three quarters of
 * that probe's best); the qualifying entries are ranked by overlap plus half
 * their similarity and at most `limit` are kept, then up to `shortRulesBeyondLimit` short rules that share a word with
 * the question. Entries are embedded once per model and text (`embeddingCache`).
 */
export async function retrieveKnowledge(options: RetrieveKnowledgeOptions): Promise<RetrievedKnowledge[]> {
  const entries = options.entries;
  const limit = Math.max(0, Math.floor(options.limit ?? defaultKnowledgeLimit));
  if (entries.length === 0 || limit === 0) return [];
  const askedText = [options.question, options.hint ?? "", ...options.keywords].join(" ");
  const asked = questionWords(askedText);
  const askedPhrase = normalizedPhrase(`${options.question} ${options.hint ?? ""}`);
  const lexical = entries.map((entry) => lexicalScore(entry, asked, askedPhrase));

  const semantic = new Array<number>(entries.length).fill(0);
  const qualified = new Set<number>();
  lexical.forEach((score, index) => {
    if (score >= lexicalThreshold) qualified.add(index);
  });
  if (options.embeddingModel) {
    const probes = [[options.question, options.hint ?? ""].join(" ").trim(), ...options.keywords].filter(
      (probe) => probe.trim() !== "",
    );
    const entryVectors = await cachedEmbeddings(options.embeddingModel, entries.map(knowledgeEntryText), options);
    const probeVectors = await embedTexts(options.embeddingModel, probes, options.abortSignal);
    for (const probe of probeVectors) {
      const similarities = entryVectors.map((vector) => cosineSimilarity(probe, vector));
      similarities.forEach((similarity, index) => {
        semantic[index] = Math.max(semantic[index]!, similarity);
      });
      const floor = Math.max(semanticFloor, semanticShareOfBest * Math.max(0, ...similarities));
      const best = similarities
        .map((similarity, index) => ({ similarity, index }))
        .filter(({ similarity }) => similarity >= floor)
        .sort((left, right) => right.similarity - left.similarity || left.index - right.index)
        .slice(0, entriesPerProbe);
      for (const { index } of best) qualified.add(index);
    }
  }
  const scored = (index: number) => ({
    entry: entries[index]!,
    lexical: lexical[index]!,
    semantic: semantic[index]!,
    score: lexical[index]! + semanticWeight * semantic[index]!,
    index,
  });
  const byScore = (left: { score: number; index: number }, right: { score: number; index: number }) =>
    right.score - left.score || left.index - right.index;
  const retrieved = [...qualified].map(scored).sort(byScore).slice(0, limit);
  const taken = new Set(retrieved.map(({ index }) => index));
  const shortRules = entries
    .map((entry, index) => ({ entry, index }))
    // A positive word overlap (`lexicalScore`) is a content word shared with what was asked.
    .filter(({ entry, index }) => !taken.has(index) && isShortRule(entry) && lexical[index]! > 0)
    .map(({ index }) => scored(index))
    .sort(byScore)
    .slice(0, shortRulesBeyondLimit);
  return [...retrieved, ...shortRules].map(({ index: _index, ...kept }) => kept);
}

function isShortRule(entry: KnowledgeEntry): boolean {
  return entry.kind === "rule" && (entry.text.match(/\S+/g) ?? []).length <= shortRuleWords;
}

/** Entry vectors by model and text: a knowledge base is embedded once per process, not on every question. */
const embeddingCache = new Map<string, Vector>();
const embeddingCacheLimit = 20_000;

async function cachedEmbeddings(
  model: EmbeddingModelV3,
  texts: readonly string[],
  options: { readonly abortSignal?: AbortSignal },
): Promise<Vector[]> {
  const modelKey = `${model.provider}:${model.modelId}`;
  const keys = texts.map((text) => `${modelKey}\u0000${text}`);
  const missing = [...new Set(keys.filter((key) => !embeddingCache.has(key)))];
  if (missing.length > 0) {
    const vectors = await embedTexts(
      model,
      missing.map((key) => key.slice(modelKey.length + 1)),
      options.abortSignal,
    );
    if (embeddingCache.size + missing.length > embeddingCacheLimit) embeddingCache.clear();
    for (const [position, key] of missing.entries()) embeddingCache.set(key, vectors[position]!);
  }
  return keys.map((key) => embeddingCache.get(key)!);
}
