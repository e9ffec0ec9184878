import { splitWordPieces, stemWord } from "../../embedding/word-pieces";
import type { SchemaColumn } from "../crush/schema-column";
import type { CompoundIdentifierSplitter } from "./compound-identifier-splitter";

/**
 * Question terms the learnt model reads: lower-cased word pieces, stemmed, deduplicated. Unlike the embedder's
 * `contentTerms`, function words stay ("many", "oldest", "where"): they carry schema meaning for a learnt model
 * (`how many` ↔ key columns, `where … from` ↔ `country`).
 */
export function questionTerms(question: string): string[] {
  return [...new Set(splitWordPieces(question).filter(isTermPiece).map(stemWord))];
}

/** A single letter (the `s` of `room's`, the `t` of `don't`) is no term; a single digit is. */
function isTermPiece(piece: string): boolean {
  return piece.length > 1 || /[0-9]/.test(piece);
}

/** Stemmed word pieces of a column's own name and of its table's name. */
export interface ColumnTokens {
  readonly column: readonly string[];
  readonly table: readonly string[];
}

export function columnTokens(column: SchemaColumn, splitter?: CompoundIdentifierSplitter): ColumnTokens {
  return { column: nameTokens(column.column, splitter), table: nameTokens(column.table, splitter) };
}

/**
 * Stemmed word pieces of one identifier (`DriverStandings` → `driver`, `standing`), deduplicated; with a splitter, a
 * run-together piece is followed by its parts (`baseprice` → `baseprice`, `base`, `price`).
 */
export function nameTokens(name: string, splitter?: CompoundIdentifierSplitter): string[] {
  const tokens: string[] = [];
  for (const piece of splitWordPieces(name)) {
    tokens.push(stemWord(piece));
    if (splitter) for (const part of splitter.split(piece)) tokens.push(stemWord(part));
  }
  return [...new Set(tokens)];
}

/**
 * Names of the dense features, in order: the lexical (offline embedder) cosine of the column, the same cosine and the
 * best cosine of the column's table and of its database, each divided by the best cosine over the whole catalog;
 * whether the column name looks like a key (`id`, `…_id`, `…code`); then whole-schema evidence
 * (`SchemaTermCoverage`): the share of the question's terms named in the column's database, that share relative to
 * the best database's, the reciprocal rank of the database by that share, and the same share and relative share for
 * the column's table; the size of the column's database and table (ln(1 + columns) / 10: among look-alike schemas,
 * the smaller one that still names the question's words is the likelier).
 */
export const denseFeatureNames = [
  "cosine",
  "relativeCosine",
  "tableBest",
  "databaseBest",
  "keyLike",
  "databaseCoverage",
  "databaseCoverageRelative",
  "databaseCoverageRank",
  "tableCoverage",
  "tableCoverageRelative",
  "databaseSize",
  "tableSize",
] as const;

export type DenseFeatureName = (typeof denseFeatureNames)[number];

/** True for key-like column names (`id`, `driver_id`, `DriverId`, `code`). */
export function isKeyLike(tokens: ColumnTokens): boolean {
  const last = tokens.column.at(-1);
  return last === "id" || last === "code" || last === "key";
}

/**
 * Sparse feature keys of one (question, column) pair: `c:<term>|<column token>` and `t:<term>|<table token>` for every
 * question term against every token, and `p:<column token>` (a prior per column word, e.g. `name` is often asked for).
 */
export function sparseFeatureKeys(terms: readonly string[], tokens: ColumnTokens): string[] {
  const keys: string[] = [];
  for (const token of tokens.column) keys.push(`p:${token}`);
  for (const term of terms) {
    for (const token of tokens.column) keys.push(`c:${term}|${token}`);
    for (const token of tokens.table) keys.push(`t:${term}|${token}`);
  }
  return keys;
}
