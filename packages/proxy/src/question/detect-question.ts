import { QuestionSyntaxError } from "@nlq/engine";
import { QuestionMarker } from "./question-marker";
import { type ScannedComment, type ScannedText, scanStatements } from "./scan-statements";

/** The default marker that opens a natural-language question in a comment. */
export const DEFAULT_MARKER = "nl:";

export type QuestionDetection =
  | { readonly kind: "sql" }
  /** `fresh`: asked with `/* nl!: … *\/`, it starts a new conversation instead of following the connection's earlier questions. */
  | { readonly kind: "question"; readonly question: string; readonly fresh?: boolean }
  /**
   * `/* nl#2 *\/;` (or `-- nl#2` as the whole query): run interpretation `number` of the connection's last answer;
   * `/* nl#2 remember *\/;` (`remember`) also confirms it as what the asker means from now on.
   */
  | { readonly kind: "pick"; readonly number: number; readonly remember?: true }
  /** A question among other statements (ordinary SQL, more questions): split the text and answer each in place. */
  | { readonly kind: "statements" }
  | { readonly kind: "invalid"; readonly error: QuestionSyntaxError };

export interface DetectQuestionOptions {
  /**
   * Text that opens a question inside a comment (default `nl:`), matched as `QuestionMarker` describes (any case,
   * optional whitespace around the colon). Pass a `QuestionMarker` to reuse one across calls.
   */
  readonly marker?: string | QuestionMarker;
  /**
   * The text is one statement of a query that also holds ordinary SQL (`planStatementBatch`): only a block comment
   * `/* nl: … *\/` asks a question there, as in the whole query.
   */
  readonly besideSql?: boolean;
}

const ORDINARY_SQL: QuestionDetection = { kind: "sql" };
const STATEMENTS: QuestionDetection = { kind: "statements" };

/**
 * Decides whether a simple-Query (or Parse) text is a natural-language question.
 *
 * A question is a statement made only of comments (plus whitespace and `;`), one of which opens with
 * the marker: `/* nl: how many orders last week? *\/;`, `/*NL:top products*\/` or `-- nl : how many orders?`.
 * Comments without the marker are ignored (Metabase prepends `-- Metabase:: …`); so is `/* nl … *\/` without
 * a colon, which PostgreSQL then answers as an empty query. Ordinary SQL — including SQL that merely contains
 * the marker in a string or in a comment beside real SQL — is `sql`. A text without a comment opener followed
 * by the marker costs one regular-expression search. The text is lexed as PostgreSQL does (`scanStatements`); one
 * that PostgreSQL versions lex differently (a vertical tab outside strings and comments), or that splits into other
 * statements or comments under `standard_conforming_strings = off` (a backslash before a quote in a plain `'…'`
 * string: the proxy does not know the session's setting), is left to the server: `sql`.
 *
 * The trailing-marker rule (docs/decisions/2026-11-27-marker-rule.md): in a query that holds ordinary SQL, only a
 * block comment `/* nl: … *\/` is a question; a `-- nl: …` line comment there is an ordinary comment, so a script
 * ending with `-- NL: Dutch rows follow` runs as PostgreSQL runs it. A `--` marker asks only in a query made of
 * comments alone.
 *
 * A text holding a question statement beside other statements is `statements` (see `planStatementBatch`).
 * Returns `invalid` with a `QuestionSyntaxError` for an empty question, an unterminated marked comment, or two
 * marked comments in one statement.
 */
export function detectQuestion(text: string, options: DetectQuestionOptions = {}): QuestionDetection {
  const marker =
    options.marker instanceof QuestionMarker ? options.marker : new QuestionMarker(options.marker ?? DEFAULT_MARKER);
  if (!marker.mayOccurIn(text)) return ORDINARY_SQL;
  const scanned = scanStatements(text);
  if (scanned.versionDependent || dependsOnStringSetting(text, scanned)) return ORDINARY_SQL;
  const { statements } = scanned;
  const besideSql = options.besideSql === true || statements.some((statement) => statement.hasSql);
  const opening = (body: string) => {
    const fresh = marker.freshOpeningLength(body);
    return fresh >= 0 ? { length: fresh, fresh: true } : { length: marker.openingLength(body), fresh: false };
  };
  const asks = (comment: ScannedComment) =>
    (comment.kind === "block" || !besideSql) && opening(comment.body).length >= 0;
  for (const statement of statements) {
    for (const comment of statement.comments) {
      if (comment.unterminated && asks(comment)) {
        return invalid(`unterminated comment in natural-language question (close it with "*/")`);
      }
    }
  }
  // A pick asks only as the whole query (comments, whitespace and `;` aside), like a `--` question.
  const pick = besideSql ? undefined : detectPick(statements, marker);
  if (pick !== undefined) return pick;
  const questionStatements = statements.filter((statement) => !statement.hasSql && statement.comments.some(asks));
  if (questionStatements.length === 0) return ORDINARY_SQL;
  const markedComments = questionStatements.flatMap((statement) => statement.comments.filter(asks));
  // Statements of comments without the marker answer nothing (PostgreSQL skips them too).
  const meaningful = statements.filter((statement) => statement.hasSql || questionStatements.includes(statement));
  if (meaningful.length > 1) return STATEMENTS;
  if (markedComments.length > 1) return invalid("only one natural-language question per statement");
  const body = markedComments[0]!.body;
  const { length, fresh } = opening(body);
  const question = body.slice(length).replace(/\s+/g, " ").trim();
  if (question === "") return invalid(`empty natural-language question after "${marker.text}"`);
  return fresh ? { kind: "question", question, fresh } : { kind: "question", question };
}

/** A query of comments alone holding a pick (`nl#2`): the pick, or invalid beside a question or another pick. */
function detectPick(statements: ScannedText["statements"], marker: QuestionMarker): QuestionDetection | undefined {
  const comments = statements.flatMap((statement) => statement.comments);
  const picks = comments.filter((comment) => !comment.unterminated && marker.pickNumber(comment.body) !== undefined);
  if (picks.length === 0) return undefined;
  const questions = comments.filter(
    (comment) => marker.openingLength(comment.body) >= 0 || marker.freshOpeningLength(comment.body) >= 0,
  );
  if (picks.length > 1 || questions.length > 0) {
    return invalid(`a pick ("${marker.stem}#2") must be the only question in its query`);
  }
  const body = picks[0]!.body;
  const number = marker.pickNumber(body)!;
  return marker.pickRemembers(body) ? { kind: "pick", number, remember: true } : { kind: "pick", number };
}

/** Whether the text's statements and comments differ when lexed with `standard_conforming_strings` off. */
function dependsOnStringSetting(text: string, scanned: ScannedText): boolean {
  if (!text.includes("\\")) return false;
  const off = scanStatements(text, { standardConformingStrings: false });
  return JSON.stringify(off.statements) !== JSON.stringify(scanned.statements);
}

function invalid(message: string): QuestionDetection {
  return { kind: "invalid", error: new QuestionSyntaxError(message) };
}
