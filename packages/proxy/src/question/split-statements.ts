import { QuestionSyntaxError } from "@nlq/engine";
import { loadModule, scanSync } from "libpg-query";

/** One statement of a simple-Query text, as PostgreSQL's own lexer delimits it. */
export interface SplitStatement {
  /** The statement's text, verbatim (comments included), without the `;` that ends it. */
  readonly text: string;
  /** UTF-8 byte offsets of the statement in the whole text (end exclusive, before its `;`). */
  readonly start: number;
  readonly end: number;
  /** True when the statement holds nothing but comments. */
  readonly onlyComments: boolean;
}

/**
 * C0 control characters but tab, newline and carriage return: libpg-query's scanner output (JSON) carries them
 * unescaped inside a token and then fails to parse.
 */
const CONTROL_CHARACTERS = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

let moduleLoaded: Promise<void> | undefined;

const COMMENT_TOKENS = new Set(["C_COMMENT", "SQL_COMMENT"]);

/**
 * Splits a simple-Query text into its statements with PostgreSQL's own lexer (libpg-query's `scanSync`: nested block
 * comments, `--` comments, standard and `E''` strings, dollar quotes, quoted identifiers), at each top-level `;`.
 * Like psql, a `CREATE` statement's `BEGIN … END` and `CASE … END` (a SQL-standard function body, `BEGIN ATOMIC`)
 * keep their `;`s. Statements holding only whitespace are left out. The text is lexed as with
 * `standard_conforming_strings = on` (the default); throws `QuestionSyntaxError` when it does not lex (an unterminated
 * string, quoted identifier or comment).
 */
export async function splitStatements(text: string): Promise<SplitStatement[]> {
  moduleLoaded ??= loadModule();
  await moduleLoaded;
  let tokens: ReturnType<typeof scanSync>["tokens"];
  try {
    tokens = scanSync(lexableText(text)).tokens;
  } catch {
    throw new QuestionSyntaxError("the query does not lex as SQL (an unterminated string, identifier or comment?)");
  }
  const bytes = Buffer.from(text, "utf8");
  const statements: SplitStatement[] = [];
  let first = -1;
  let last = -1;
  let onlyComments = true;
  let startsWithCreate = false;
  let depth = 0;
  const end = () => {
    if (first >= 0) {
      const start = tokens[first]!.start;
      const stop = tokens[last]!.end;
      statements.push({ text: bytes.subarray(start, stop).toString("utf8"), start, end: stop, onlyComments });
    }
    first = -1;
    last = -1;
    onlyComments = true;
    startsWithCreate = false;
    depth = 0;
  };
  tokens.forEach((token, index) => {
    if (token.text === ";" && depth === 0) {
      end();
      return;
    }
    const comment = COMMENT_TOKENS.has(token.tokenName);
    if (!comment) {
      const word = token.text.toLowerCase();
      if (onlyComments) startsWithCreate = word === "create";
      else if (startsWithCreate && (word === "begin" || word === "case")) depth++;
      else if (startsWithCreate && word === "end" && depth > 0) depth--;
      onlyComments = false;
    }
    if (first < 0) first = index;
    last = index;
  });
  end();
  return statements;
}

/**
 * The text with each control character that libpg-query cannot report replaced by one byte that lexes alike wherever
 * it stands (so byte offsets stay): a form feed or vertical tab by a space (whitespace to PostgreSQL 16+), any other by
 * `?` (an operator character: it ends an identifier or number as the control character does, and opens no comment,
 * string or quote).
 */
function lexableText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => (character === "\f" || character === "\v" ? " " : "?"));
}
