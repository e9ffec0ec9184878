/**
 * A small lexer over PostgreSQL SQL text that knows just enough (comments, nested block comments,
 * quoted strings and identifiers, escape strings, dollar quoting) to split a simple-Query text into
 * statements at top-level semicolons and list each statement's comments. Pure; no parsing of SQL.
 */

export interface ScannedComment {
  readonly kind: "line" | "block";
  /** Text between `--` and the end of the line, or between `/*` and its matching `*\/`. */
  readonly body: string;
  /** True for a block comment that never closes. */
  readonly unterminated: boolean;
}

export interface ScannedStatement {
  readonly comments: readonly ScannedComment[];
  /** True when the statement holds anything but whitespace and comments. */
  readonly hasSql: boolean;
}

const DOLLAR_TAG = /\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const IDENTIFIER_CHARACTER = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Splits SQL text into statements; empty statements (only whitespace and `;`) are left out. */
export function scanStatements(text: string): ScannedStatement[] {
  const statements: ScannedStatement[] = [];
  let comments: ScannedComment[] = [];
  let hasSql = false;
  const endStatement = () => {
    if (hasSql || comments.length > 0) statements.push({ comments, hasSql });
    comments = [];
    hasSql = false;
  };
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    const next = text[index + 1];
    if (character === ";") {
      endStatement();
      index++;
    } else if (/\s/.test(character)) {
      index++;
    } else if (character === "-" && next === "-") {
      const newline = text.indexOf("\n", index);
      const end = newline < 0 ? text.length : newline;
      comments.push({ kind: "line", body: text.slice(index + 2, end), unterminated: false });
      index = end;
    } else if (character === "/" && next === "*") {
      const end = blockCommentEnd(text, index);
      const unterminated = end < 0;
      comments.push({ kind: "block", body: text.slice(index + 2, unterminated ? text.length : end - 2), unterminated });
      index = unterminated ? text.length : end;
    } else if (character === "'") {
      const escapes = index > 0 && /[eE]/.test(text[index - 1]!) && !IDENTIFIER_CHARACTER.test(text[index - 2] ?? " ");
      hasSql = true;
      index = quotedEnd(text, index, "'", escapes);
    } else if (character === '"') {
      hasSql = true;
      index = quotedEnd(text, index, '"', false);
    } else if (character === "$" && !IDENTIFIER_CHARACTER.test(text[index - 1] ?? " ")) {
      hasSql = true;
      DOLLAR_TAG.lastIndex = index;
      const tag = DOLLAR_TAG.exec(text);
      if (tag === null) {
        index++;
      } else {
        const close = text.indexOf(tag[0], index + tag[0].length);
        index = close < 0 ? text.length : close + tag[0].length;
      }
    } else {
      hasSql = true;
      index++;
    }
  }
  endStatement();
  return statements;
}

/** Index just past the `*\/` matching the `/*` at `start` (block comments nest), or -1. */
function blockCommentEnd(text: string, start: number): number {
  let depth = 0;
  let index = start;
  while (index < text.length - 1) {
    const pair = text.slice(index, index + 2);
    if (pair === "/*") {
      depth++;
      index += 2;
    } else if (pair === "*/") {
      depth--;
      index += 2;
      if (depth === 0) return index;
    } else {
      index++;
    }
  }
  return -1;
}

/** Index just past the closing quote of the quoted token at `start` (doubled quotes are escapes). */
function quotedEnd(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let index = start + 1;
  while (index < text.length) {
    const character = text[index]!;
    if (backslashEscapes && character === "\\") {
      index += 2;
    } else if (character === quote) {
      if (text[index + 1] === quote) index += 2;
      else return index + 1;
    } else {
      index++;
    }
  }
  return text.length;
}
