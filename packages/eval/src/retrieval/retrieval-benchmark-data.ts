import { readFile } from "node:fs/promises";
import type { SchemaColumn } from "@nlq/engine";
import { ConfigurationError, NlqError } from "@nlq/engine";

/** One question of a CRUSH4SQL-format retrieval benchmark (`birdunion.tune.jsonl`). */
export interface RetrievalQuestion {
  readonly id: string;
  readonly question: string;
  /** BIRD evidence; empty when absent (the data writes a missing evidence as "False"). */
  readonly evidence: string;
  /** Gold columns, `db.table.column`, lower case. */
  readonly gold: readonly string[];
  /** The hallucinated schema recorded from the CRUSH4SQL run, `Table(col, col)` strings; empty when absent. */
  readonly hallucinated: readonly string[];
}

const benchmarkDataErrorMarker = Symbol.for("nlq.error.BenchmarkDataError");

/** The benchmark data was unreadable or malformed. SQLSTATE F0000 like other configuration errors. */
export class BenchmarkDataError extends ConfigurationError {
  readonly [benchmarkDataErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is BenchmarkDataError {
    return NlqError.hasMarker(error, benchmarkDataErrorMarker);
  }

  readonly path: string;
  constructor(message: string, options: { path: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.path = options.path;
  }
}

async function readJsonLines(path: string): Promise<{ line: number; value: Record<string, unknown> }[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new BenchmarkDataError(`cannot read ${path}`, { path, cause: error });
  }
  const rows: { line: number; value: Record<string, unknown> }[] = [];
  text.split("\n").forEach((raw, position) => {
    if (raw.trim() === "") return;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
      rows.push({ line: position + 1, value: value as Record<string, unknown> });
    } catch (error) {
      throw new BenchmarkDataError(`${path}:${position + 1}: not a JSON object`, { path, cause: error });
    }
  });
  return rows;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/** Reads a corpus file: one `{"db","table","column"}` (optional `"description"`) per line. */
export async function readRetrievalCorpus(path: string): Promise<SchemaColumn[]> {
  return (await readJsonLines(path)).map(({ line, value }) => {
    const table = text(value.table);
    const column = text(value.column);
    if (table === undefined || column === undefined) {
      throw new BenchmarkDataError(`${path}:${line}: expected "table" and "column" strings`, { path });
    }
    const database = text(value.db);
    const description = text(value.description);
    return {
      table,
      column,
      ...(database === undefined ? {} : { database }),
      ...(description ? { description } : {}),
    };
  });
}

/** Reads a questions file: one `{"id","question","evidence","gold","hallucinated",...}` per line. */
export async function readRetrievalQuestions(path: string): Promise<RetrievalQuestion[]> {
  return (await readJsonLines(path)).map(({ line, value }) => {
    const question = text(value.question);
    const gold = strings(value.gold);
    if (question === undefined || gold === undefined) {
      throw new BenchmarkDataError(`${path}:${line}: expected "question" string and "gold" string list`, { path });
    }
    const evidence = text(value.evidence) ?? "";
    return {
      id: text(value.id) ?? String(line),
      question,
      evidence: evidence === "False" ? "" : evidence,
      gold: gold.map((key) => key.toLowerCase()),
      hallucinated: strings(value.hallucinated) ?? [],
    };
  });
}
