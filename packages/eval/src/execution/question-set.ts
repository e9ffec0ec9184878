import { readFile } from "node:fs/promises";
import { parseCsvRecords } from "@nlq/adapters";
import { EvaluationInputError } from "./candidate-pool";
import { translateMysqlGold } from "./translate-mysql-gold";

/** A question with gold SQL, answered by the engine in `nlq eval --questions`. */
export interface GoldQuestion {
  readonly id: string;
  readonly question: string;
  /** Gold SQL, possibly in defog's `{a,b}` / `;` notation: the first reading when there are several. */
  readonly gold: string;
  /**
   * Every gold reading, `gold` first, when the question has more than one (AmbiQT's `query1`, `query2`): each is a
   * meaning the question may have, scored by which of them the answer and its interpretations return. Absent: one.
   */
  readonly readings?: readonly string[];
  /**
   * The database the question is asked on, on the server (and as the user) of `--url`: a question file may spread
   * its questions over several databases (one per Spider database, one per materialised AmbiQT question). Default:
   * the database of `--url`.
   */
  readonly database?: string;
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

/** Every gold reading of a question: `readings`, or its one `gold`. */
export function goldReadingsOf(question: Pick<GoldQuestion, "gold" | "readings">): readonly string[] {
  return question.readings ?? [question.gold];
}

/**
 * The gold readings of one JSONL line: `"gold"` (or `"golds"`) as a list, else `query1`, `query2`, … (AmbiQT's
 * shape), else one `"gold"` (or `"query"`/`"sql"`). Undefined when there is none.
 */
function readingsOfLine(value: Record<string, unknown>, line: number): string[] | undefined {
  const list = [value.gold, value.golds].find((item) => Array.isArray(item)) as unknown[] | undefined;
  const numbered: unknown[] = [];
  for (let number = 1; value[`query${number}`] !== undefined && value[`query${number}`] !== null; number++)
    numbered.push(value[`query${number}`]);
  const readings = list ?? (numbered.length > 0 ? numbered : undefined);
  if (readings === undefined) return undefined;
  if (readings.length === 0 || !readings.every((reading) => typeof reading === "string" && reading.trim() !== ""))
    throw new EvaluationInputError(`line ${line}: every gold reading must be a non-empty string`);
  return readings as string[];
}

/**
 * Questions in JSONL: `{"id"?, "question", "gold" (or "query"/"sql"; or a list of readings: "gold"/"golds" as an
 * array, or "query1", "query2", …), "schema" (or "db"/"db_name")?, "database"?, "category" (or
 * "query_category"/"difficulty")?, "hint" (or "evidence"/"instructions")?}` per line.
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
    const readings = readingsOfLine(value, index + 1);
    const gold = readings?.[0] ?? pick("gold", "query", "sql");
    if (question === undefined || gold === undefined)
      throw new EvaluationInputError(`line ${index + 1}: needs "question" and "gold"`);
    const schema = optional(pick("schema", "db", "db_name"));
    const database = optional(pick("database"));
    const hint = optional(pick("hint", "evidence", "instructions"));
    questions.push({
      id: pick("id") ?? String(index + 1),
      question,
      gold,
      ...(readings !== undefined && readings.length > 1 ? { readings } : {}),
      ...(schema === undefined ? {} : { schema }),
      ...(database === undefined ? {} : { database }),
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
