/**
 * A small lexer over PostgreSQL SQL text that follows PostgreSQL's scanner (`src/backend/parser/scan.l`) for what
 * decides where comments, strings and statements begin and end, and nothing more: it splits a simple-Query text into
 * statements at top-level semicolons and lists each statement's comments. Pure; no parsing of SQL.
 *
 * The rules it follows from scan.l (lexed with `standard_conforming_strings = on`, the default, unless told otherwise):
 * - whitespace is space, tab, `\n`, `\r` and form feed; a vertical tab is whitespace only from PostgreSQL 16 (an
 *   error before), so a text with one outside strings and comments is marked `versionDependent`;
 * - a `--` comment runs to the first `\n` or `\r`; block comments nest (`/*` inside one opens another);
 * - `'…'` strings double a quote to escape it; `E'…'` strings also take backslash escapes; a string followed by
 *   whitespace holding a newline and another `'` continues (in the same kind: backslash escapes go on);
 *   `B'…'`, `X'…'`, `N'…'` and `U&'…'` quote as `'…'`; `"…"` and `U&"…"` identifiers double `"`; with
 *   `standard_conforming_strings = off` a plain (or `N`) `'…'` string takes backslash escapes as `E'…'` does;
 * - `$tag$ … $tag$` quotes where a token starts (not inside an identifier, which may hold `$`; `$1` is a parameter);
 * - like psql, a `CREATE` statement's `BEGIN … END` and `CASE … END` (a SQL-standard function body) keep their `;`s
 *   (`split-statements.ts` does the same over libpg-query's tokens).
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

export interface ScannedText {
  /** The statements; empty ones (only whitespace and `;`) are left out. */
  readonly statements: readonly ScannedStatement[];
  /**
   * True when PostgreSQL versions lex the text differently outside strings and comments (a vertical tab): such a text
   * is left to the server as it is.
   */
  readonly versionDependent: boolean;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r", "\f"]);
const NEWLINE = /[\n\r]/g;
const VERTICAL_TAB = "\v";
/** scan.l's `dolqdelim`: `$`, an optional tag (no digit first, no `$`), `$`. */
const DOLLAR_DELIMITER = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
/** scan.l's `param` (with the junk PostgreSQL refuses after it): `$` and digits. */
const PARAMETER = /\$[0-9]+[A-Za-z0-9_\u0080-\uffff]*/y;
/** A numeric literal (with any trailing junk PostgreSQL refuses): no `$` quote starts inside it. */
const NUMBER = /(?:[0-9]|\.[0-9])[0-9A-Za-z_.\u0080-\uffff]*/y;
/** scan.l's `identifier`. */
const IDENTIFIER = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/y;
/** The prefixes that make an identifier-looking start a string or quoted identifier instead. */
const STRING_PREFIX = /(?:[eE]|[bBxXnN]|[uU]&)(?=['"])/y;

export interface ScanOptions {
  /** The session's `standard_conforming_strings` (default true): off, plain `'…'` strings take backslash escapes. */
  readonly standardConformingStrings?: boolean;
}

/** Splits SQL text into statements and lists their comments. */
export function scanStatements(text: string, options: ScanOptions = {}): ScannedText {
  return new StatementScanner(text, options.standardConformingStrings ?? true).scan();
}

class StatementScanner {
  readonly #text: string;
  #index = 0;
  #statements: ScannedStatement[] = [];
  #comments: ScannedComment[] = [];
  #hasSql = false;
  #versionDependent = false;
  /** The statement's first word was an unquoted CREATE: count BEGIN/CASE … END as psql does. */
  #startsWithCreate = false;
  #depth = 0;

  /** Plain `'…'` strings take no backslash escapes (`standard_conforming_strings = on`). */
  readonly #standardStrings: boolean;

  constructor(text: string, standardStrings: boolean) {
    this.#text = text;
    this.#standardStrings = standardStrings;
  }

  scan(): ScannedText {
    const text = this.#text;
    while (this.#index < text.length) {
      const character = text[this.#index]!;
      const next = text[this.#index + 1];
      if (WHITESPACE.has(character)) {
        this.#index++;
      } else if (character === "-" && next === "-") {
        this.#lineComment();
      } else if (character === "/" && next === "*") {
        this.#blockComment();
      } else if (character === ";" && this.#depth === 0) {
        this.#endStatement();
        this.#index++;
      } else {
        if (character === VERTICAL_TAB) this.#versionDependent = true;
        this.#sqlToken(character);
      }
    }
    this.#endStatement();
    return { statements: this.#statements, versionDependent: this.#versionDependent };
  }

  #endStatement(): void {
    if (this.#hasSql || this.#comments.length > 0) {
      this.#statements.push({ comments: this.#comments, hasSql: this.#hasSql });
    }
    this.#comments = [];
    this.#hasSql = false;
    this.#startsWithCreate = false;
    this.#depth = 0;
  }

  #lineComment(): void {
    const start = this.#index;
    NEWLINE.lastIndex = start;
    const newline = NEWLINE.exec(this.#text);
    const end = newline === null ? this.#text.length : newline.index;
    this.#comments.push({ kind: "line", body: this.#text.slice(start + 2, end), unterminated: false });
    this.#index = end;
  }

  #blockComment(): void {
    const start = this.#index;
    const end = blockCommentEnd(this.#text, start);
    const unterminated = end < 0;
    const bodyEnd = unterminated ? this.#text.length : end - 2;
    this.#comments.push({ kind: "block", body: this.#text.slice(start + 2, bodyEnd), unterminated });
    this.#index = unterminated ? this.#text.length : end;
  }

  /** One token of SQL (anything but whitespace and comments) at the current index. */
  #sqlToken(character: string): void {
    const text = this.#text;
    const firstToken = !this.#hasSql;
    this.#hasSql = true;
    if (character === "'") {
      this.#index = this.#stringEnd(this.#index, !this.#standardStrings);
    } else if (character === '"') {
      this.#index = quotedEnd(text, this.#index, '"', false);
    } else if (character === "$") {
      this.#index = this.#dollarToken();
    } else if (/[0-9]/.test(character) || (character === "." && /[0-9]/.test(text[this.#index + 1] ?? ""))) {
      this.#index = matchEnd(NUMBER, text, this.#index);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(character)) {
      const prefixEnd = matchEnd(STRING_PREFIX, text, this.#index);
      if (prefixEnd > this.#index) {
        const escapes = /[eE]/.test(character) || (/[nN]/.test(character) && !this.#standardStrings);
        this.#index =
          text[prefixEnd] === "'" ? this.#stringEnd(prefixEnd, escapes) : quotedEnd(text, prefixEnd, '"', false);
      } else {
        const end = matchEnd(IDENTIFIER, text, this.#index);
        this.#word(text.slice(this.#index, end).toLowerCase(), firstToken);
        this.#index = end;
      }
    } else {
      this.#index++;
    }
  }

  /** Index just past a string literal opening at `start`, its continuations included. */
  #stringEnd(start: number, backslashEscapes: boolean): number {
    const text = this.#text;
    let end = quotedEnd(text, start, "'", backslashEscapes);
    while (end < text.length) {
      const quote = continuationQuote(text, end);
      if (quote < 0) break;
      if (text.slice(end, quote).includes(VERTICAL_TAB)) this.#versionDependent = true;
      end = quotedEnd(text, quote, "'", backslashEscapes);
    }
    return end;
  }

  /** psql's rule for SQL-standard function bodies: in a CREATE statement, BEGIN and CASE open, END closes. */
  #word(word: string, firstToken: boolean): void {
    if (firstToken) this.#startsWithCreate = word === "create";
    else if (this.#startsWithCreate && (word === "begin" || word === "case")) this.#depth++;
    else if (this.#startsWithCreate && word === "end" && this.#depth > 0) this.#depth--;
  }

  /** Index past a `$` token: a dollar-quoted string, a parameter, or a lone `$`. */
  #dollarToken(): number {
    const text = this.#text;
    const start = this.#index;
    DOLLAR_DELIMITER.lastIndex = start;
    const delimiter = DOLLAR_DELIMITER.exec(text);
    if (delimiter !== null) {
      const close = text.indexOf(delimiter[0], start + delimiter[0].length);
      return close < 0 ? text.length : close + delimiter[0].length;
    }
    const parameterEnd = matchEnd(PARAMETER, text, start);
    return parameterEnd > start ? parameterEnd : start + 1;
  }
}

/**
 * The index of the `'` that continues a string closed just before `start` (scan.l's `quotecontinue`: whitespace and
 * `--` comments holding at least one newline, then a quote), or -1. A loop, not a regular expression: nested
 * repetitions over whitespace and comments would backtrack exponentially on hostile text. A vertical tab counts as
 * whitespace (PostgreSQL 16+; the caller marks the text version-dependent).
 */
function continuationQuote(text: string, start: number): number {
  let index = start;
  let newline = false;
  while (index < text.length) {
    const character = text[index]!;
    if (character === "\n" || character === "\r") {
      newline = true;
      index++;
    } else if (character === " " || character === "\t" || character === "\f" || character === VERTICAL_TAB) {
      index++;
    } else if (character === "-" && text[index + 1] === "-") {
      NEWLINE.lastIndex = index;
      const end = NEWLINE.exec(text);
      if (end === null) return -1;
      index = end.index;
    } else {
      return character === "'" && newline ? index : -1;
    }
  }
  return -1;
}

/** The index where the sticky `pattern` stops matching at `start` (`start` when it does not match). */
function matchEnd(pattern: RegExp, text: string, start: number): number {
  pattern.lastIndex = start;
  const match = pattern.exec(text);
  return match === null ? start : start + match[0].length;
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

/** Index just past the closing quote of the quoted token at `start` (doubled quotes are escapes), or the text's end. */
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
