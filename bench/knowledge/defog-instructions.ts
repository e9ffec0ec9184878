import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsvRecords } from "@nlq/adapters";

/** The defog question sets with instructions (sql-eval's `instruct_*`). */
export const instructSets = ["instruct_advanced", "instruct_basic"] as const;
export type InstructSet = (typeof instructSets)[number];

/** One row of a defog question CSV, by its header's names. */
export interface DefogQuestionRow {
  readonly set: InstructSet;
  /** 1 = the first row after the header. */
  readonly row: number;
  readonly database: string;
  readonly category: string;
  readonly question: string;
  readonly gold: string;
  /** The question's own instructions (instruct_advanced only). */
  readonly instructions?: string;
  /** The database's instructions as the set gives them (instruct_advanced only). */
  readonly fullInstructions?: string;
}

/** The rows of `questions/<set>_postgres.csv`. */
export function readInstructQuestions(defogDirectory: string, set: InstructSet): DefogQuestionRow[] {
  const file = join(defogDirectory, `questions/${set}_postgres.csv`);
  const [header, ...records] = parseCsvRecords(readFileSync(file, "utf8"));
  if (header === undefined) throw new Error(`${file} is empty`);
  return records.map((record, index) => {
    const field = (name: string) => {
      const column = header.indexOf(name);
      const value = column === -1 ? undefined : record[column]?.trim();
      return value === "" ? undefined : value;
    };
    const instructions = field("instructions");
    const fullInstructions = field("full_instructions");
    return {
      set,
      row: index + 1,
      database: field("db_name") ?? "",
      category: field("query_category") ?? "all",
      question: field("question") ?? "",
      gold: field("query") ?? "",
      ...(instructions === undefined ? {} : { instructions }),
      ...(fullInstructions === undefined ? {} : { fullInstructions }),
    };
  });
}

/**
 * Each database's glossary: the distinct non-empty lines of every `full_instructions` of its instruct_advanced
 * questions, in first-seen order (issue 27: 37–64 lines per database).
 */
export function glossaryLines(defogDirectory: string): Map<string, string[]> {
  const glossaries = new Map<string, string[]>();
  for (const row of readInstructQuestions(defogDirectory, "instruct_advanced")) {
    const lines = glossaries.get(row.database) ?? [];
    for (const line of (row.fullInstructions ?? "").split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed !== "" && !lines.includes(trimmed)) lines.push(trimmed);
    }
    glossaries.set(row.database, lines);
  }
  return glossaries;
}
