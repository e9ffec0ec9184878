import { NlqError } from "@nlq/engine";

/** One candidate SQL of a pool and who produced it (a generator, a system, `gold`…). */
export interface PoolCandidate {
  readonly source: string;
  readonly sql: string;
}

/** One line of a candidate pool file (`nlq eval --candidates`). */
export interface PoolQuestion {
  readonly id: string;
  readonly question: string;
  /** Sets `search_path` for the gold and the candidates. Default: the connection's own. */
  readonly schema?: string;
  /** Gold SQL, in defog's notation when it uses `{a,b}` or `;` (see `expandGoldAlternatives`). */
  readonly gold: string;
  readonly candidates: readonly PoolCandidate[];
  /** Why the gold cannot run at all (its translation failed): reported as "gold does not run", never scored. */
  readonly goldError?: string;
}

/**
 * Questions with gold SQL as a pool whose only candidate is the gold itself (source `gold`): the check that each
 * gold runs and scores 1.0 against itself (`nlq eval --candidates train_queries.csv`). A question whose gold could not
 * be translated gets no candidate and keeps its `goldError`.
 */
export function goldAsCandidatePool(
  questions: ReadonlyArray<{
    readonly id: string;
    readonly question: string;
    readonly schema?: string;
    readonly gold: string;
    readonly goldError?: string;
  }>,
): PoolQuestion[] {
  return questions.map((question) => ({
    id: question.id,
    question: question.question,
    ...(question.schema === undefined ? {} : { schema: question.schema }),
    gold: question.gold,
    candidates: question.goldError === undefined ? [{ source: "gold", sql: question.gold }] : [],
    ...(question.goldError === undefined ? {} : { goldError: question.goldError }),
  }));
}

const evaluationInputErrorMarker = Symbol.for("nlq.error.EvaluationInputError");

/** A line of an evaluation input file that is not what the format says. SQLSTATE 22023 (invalid parameter value). */
export class EvaluationInputError extends NlqError {
  readonly [evaluationInputErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is EvaluationInputError {
    return NlqError.hasMarker(error, evaluationInputErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "22023" });
  }
}

function text(value: unknown, field: string, where: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw new EvaluationInputError(`${where}: "${field}" must be a string`);
}

/**
 * Parses a candidate pool in JSONL: one `{"id", "question", "schema"?, "gold", "candidates": [{"source", "sql"}]}`
 * per line (also `db` for `schema`); blank lines are skipped. Throws `EvaluationInputError` naming the line.
 */
export function parseCandidatePool(jsonl: string): PoolQuestion[] {
  const questions: PoolQuestion[] = [];
  jsonl.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `line ${index + 1}`;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new EvaluationInputError(`${where}: not JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(value.candidates)) throw new EvaluationInputError(`${where}: "candidates" must be an array`);
    const schema = value.schema ?? value.db;
    questions.push({
      id: text(value.id ?? String(index + 1), "id", where),
      question: text(value.question ?? "", "question", where),
      ...(schema === undefined || schema === null ? {} : { schema: text(schema, "schema", where) }),
      gold: text(value.gold, "gold", where),
      candidates: value.candidates.map((candidate: Record<string, unknown>, position: number) => ({
        source: text(candidate?.source, "source", `${where}, candidate ${position + 1}`),
        sql: text(candidate?.sql, "sql", `${where}, candidate ${position + 1}`),
      })),
    });
  });
  return questions;
}
