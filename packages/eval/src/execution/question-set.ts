import { readFile } from "node:fs/promises";
import { parseCsvRecords } from "@nlq/adapters";
import { EvaluationInputError } from "./candidate-pool";
import { translateMysqlGold } from "./translate-mysql-gold";

/** A question with gold SQL, answered by the engine in `nlq eval --questions`. */
export interface GoldQuestion {
  readonly id: string;
  readonly question: string;
  /** Gold SQL, possibly in defog's `{a,b}` / `;` notation. */
  readonly gold: string;
  /** Sets `search_path` (defog's `db_name`). Default: the connection's own. */
  readonly schema?: string;
  /** Category or difficulty the figures are broken down by. Default `all`. */
  readonly category: string;
  /** Extra knowledge passed to the engine as the hint (BIRD's evidence, defog's instructions). */
  readonly hint?: string;
  /** The gold as the file wrote it, when `gold` is a translation of it (Spider's MySQL gold). */
  readonly sourceGold?: string;
  /** Why the gold cannot run at all (its translation failed): reported as "gold does not run", never scored. */
  readonly goldError?: string;
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * Defog's question CSVs (`question`, `query`, `db_name`, `query_category`, optional `instructions`; header order
 * varies between files). Ids are `<file stem>-<row number>`.
 */
function parseDefogQuestions(csv: string, stem = "q"): GoldQuestion[] {
  const [header, ...records] = parseCsvRecords(csv);
  if (!header) return [];
  const column = (name: string) => header.indexOf(name);
  for (const required of ["question", "query"]) {
    if (column(required) === -1) throw new EvaluationInputError(`CSV has no "${required}" column`);
  }
  return records.map((record, index) => {
    const field = (name: string) => (column(name) === -1 ? undefined : record[column(name)]);
    const schema = optional(field("db_name"));
    const hint = optional(field("instructions"));
    return {
      id: `${stem}-${index + 1}`,
      question: field("question") ?? "",
      gold: field("query") ?? "",
      ...(schema === undefined ? {} : { schema }),
      category: optional(field("query_category")) ?? "all",
      ...(hint === undefined ? {} : { hint }),
    };
  });
}

/**
 * The Spider warehouse's `train_queries.csv` (`database`, `question`, `sql`; also `db_id`/`query`): gold SQL in
 * MySQL's dialect, translated to PostgreSQL (`translateMysqlGold`); the schema is the database name lower-cased, as
 * the warehouse loader names it. A gold that cannot be translated keeps its MySQL text and a `goldError`. Ids are
 * `<file stem>-<row number>`.
 */
function parseSpiderQuestions(header: readonly string[], records: readonly string[][], stem: string): GoldQuestion[] {
  const column = (...names: string[]) => header.findIndex((name) => names.includes(name));
  const [database, question, sql] = [column("database", "db_id"), column("question"), column("sql", "query")];
  return records.map((record, index) => {
    const source = record[sql] ?? "";
    const translation = translateMysqlGold(source);
    return {
      id: `${stem}-${index + 1}`,
      question: record[question] ?? "",
      gold: translation.ok ? translation.sql : source,
      schema: (record[database] ?? "").toLowerCase(),
      category: "all",
      sourceGold: source,
      ...(translation.ok ? {} : { goldError: translation.error }),
    };
  });
}

/** Whether a CSV header is Spider's (`database`/`db_id`, `question`, `sql`) rather than defog's (`db_name`, `query`). */
function isSpiderHeader(header: readonly string[]): boolean {
  return (
    header.includes("question") &&
    (header.includes("database") || header.includes("db_id")) &&
    (header.includes("sql") || header.includes("query")) &&
    !header.includes("db_name")
  );
}

/**
 * Questions in JSONL: `{"id"?, "question", "gold" (or "query"/"sql"), "schema" (or "db"/"db_name")?,
 * "category" (or "query_category"/"difficulty")?, "hint" (or "evidence"/"instructions")?}` per line.
 */
function parseQuestionLines(jsonl: string): GoldQuestion[] {
  const questions: GoldQuestion[] = [];
  jsonl.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new EvaluationInputError(`line ${index + 1}: not JSON (${(error as Error).message})`);
    }
    const pick = (...names: string[]) => {
      const found = names.map((name) => value[name]).find((item) => item !== undefined && item !== null);
      return found === undefined ? undefined : String(found);
    };
    const question = pick("question");
    const gold = pick("gold", "query", "sql");
    if (question === undefined || gold === undefined)
      throw new EvaluationInputError(`line ${index + 1}: needs "question" and "gold"`);
    const schema = optional(pick("schema", "db", "db_name"));
    const hint = optional(pick("hint", "evidence", "instructions"));
    questions.push({
      id: pick("id") ?? String(index + 1),
      question,
      gold,
      ...(schema === undefined ? {} : { schema }),
      category: optional(pick("category", "query_category", "difficulty")) ?? "all",
      ...(hint === undefined ? {} : { hint }),
    });
  });
  return questions;
}

/**
 * Reads a question file: `.csv` as Spider's `train_queries.csv` when its header says so (gold translated from MySQL),
 * else as defog's CSV; anything else as JSONL.
 */
export async function readQuestionFile(file: string): Promise<GoldQuestion[]> {
  const text = await readFile(file, "utf8");
  if (!file.toLowerCase().endsWith(".csv")) return parseQuestionLines(text);
  const stem = file
    .split("/")
    .at(-1)!
    .replace(/\.csv$/i, "");
  const [header, ...records] = parseCsvRecords(text);
  if (header && isSpiderHeader(header)) return parseSpiderQuestions(header, records, stem);
  return parseDefogQuestions(text, stem);
}
