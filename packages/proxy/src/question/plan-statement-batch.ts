import { QuestionSyntaxError } from "@nlq/engine";
import { detectQuestion } from "./detect-question";
import type { QuestionMarker } from "./question-marker";
import { scanStatements } from "./scan-statements";
import { splitStatements } from "./split-statements";

/** One step of a simple-Query batch that holds questions among other statements. */
export type BatchPart =
  /** Consecutive ordinary statements, verbatim (with the `;`s between them): sent upstream as one simple Query. */
  | { readonly kind: "sql"; readonly text: string }
  /** A question, answered in place. */
  | { readonly kind: "question"; readonly question: string };

/**
 * Splits a simple-Query text (`splitStatements`, PostgreSQL's lexer) into the steps that answer it in order: runs of
 * ordinary statements, kept together and verbatim, and questions. Statements made only of comments without the
 * marker are dropped (PostgreSQL skips them in a multi-statement query); beside ordinary SQL a `-- nl: …` line comment is
 * such a comment, not a question (`detectQuestion`'s trailing-marker rule). Throws `QuestionSyntaxError` when the text
 * does not lex or a question is malformed, before anything runs.
 */
export async function planStatementBatch(text: string, marker: QuestionMarker): Promise<BatchPart[]> {
  const bytes = Buffer.from(text, "utf8");
  const parts: BatchPart[] = [];
  let sqlStart = -1;
  let sqlEnd = -1;
  const endSql = () => {
    if (sqlStart >= 0) parts.push({ kind: "sql", text: bytes.subarray(sqlStart, sqlEnd).toString("utf8") });
    sqlStart = -1;
  };
  const besideSql = scanStatements(text).statements.some((statement) => statement.hasSql);
  for (const statement of await splitStatements(text)) {
    const detection = detectQuestion(statement.text, { marker, besideSql });
    if (detection.kind === "invalid") throw detection.error;
    if (detection.kind === "statements") {
      // The proxy's quick scan and PostgreSQL's lexer disagree on where this statement ends.
      throw new QuestionSyntaxError("could not split the query into statements around the natural-language question");
    }
    if (detection.kind === "question") {
      endSql();
      parts.push({ kind: "question", question: detection.question });
    } else if (!statement.onlyComments) {
      if (sqlStart < 0) sqlStart = statement.start;
      sqlEnd = statement.end;
    }
  }
  endSql();
  return parts;
}
