import { readFile } from "node:fs/promises";
import { parseCsvRecords } from "@nlq/adapters";
import type { SchemaColumn } from "@nlq/engine";
import { type RetrievalQuestion, readRetrievalQuestions } from "@nlq/eval";
import { goldColumnKeys } from "./sql-gold-columns";

/** One training or validation question with its database and gold `db.table.column` keys. */
export interface LabelledQuestion {
  readonly id: string;
  readonly database: string;
  readonly question: string;
  readonly gold: readonly string[];
  /** Recorded hallucinated schema (BIRD only), for CRUSH measurement. */
  readonly hallucinated: readonly string[];
}

/** Spider training questions with gold columns from their SQL, resolved against the SpiderUnion corpus. */
export async function readSpiderTrainingQuestions(
  queriesPath: string,
  corpus: readonly SchemaColumn[],
): Promise<LabelledQuestion[]> {
  const byDatabase = new Map<string, SchemaColumn[]>();
  for (const column of corpus) {
    const database = column.database ?? "";
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), column]);
  }
  const [, ...rows] = parseCsvRecords(await readFile(queriesPath, "utf8"));
  const questions: LabelledQuestion[] = [];
  rows.forEach(([database, question, sql], position) => {
    const columns = byDatabase.get((database ?? "").toLowerCase());
    if (!columns || !question || !sql) return;
    const gold = goldColumnKeys(columns, sql);
    if (gold.length === 0) return; // COUNT(*)-only questions name no column: nothing to retrieve or learn
    questions.push({
      id: `spider-train-${position}`,
      database: database!.toLowerCase(),
      question,
      gold,
      hallucinated: [],
    });
  });
  return questions;
}

/** BIRD tuning-half questions (CRUSH4SQL format) with their database taken from the gold keys. */
export async function readBirdTuningQuestions(path: string): Promise<LabelledQuestion[]> {
  const questions: RetrievalQuestion[] = await readRetrievalQuestions(path);
  return questions
    .filter((question) => question.gold.length > 0)
    .map((question) => ({
      id: question.id,
      database: question.gold[0]!.split(".")[0]!,
      question: question.question,
      gold: question.gold,
      hallucinated: question.hallucinated,
    }));
}

/** Deterministic 32-bit generator (mulberry32) for the split and the training order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle of a copy, driven by `random`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let position = copy.length - 1; position > 0; position--) {
    const other = Math.floor(random() * (position + 1));
    [copy[position], copy[other]] = [copy[other]!, copy[position]!];
  }
  return copy;
}

/** Whole databases held out for validation: `share` of the sorted database names, chosen by `seed`. */
export function heldOutDatabases(databases: Iterable<string>, share: number, seed: number): Set<string> {
  const sorted = [...new Set(databases)].sort();
  const count = Math.max(1, Math.round(sorted.length * share));
  return new Set(shuffled(sorted, seededRandom(seed)).slice(0, count));
}
