import { ConfigurationError } from "@nlq/engine";

/** PostgreSQL's whitespace (space, tab, newline, carriage return, form feed, vertical tab). */
const WHITESPACE = "[ \\t\\n\\r\\f\\v]";
const WHITESPACE_BYTES: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0c, 0x0b]);
const COMMENT_OPENERS = [Buffer.from("/*"), Buffer.from("--")];

/** One piece of a marker: an ASCII letter (either case), a colon (spaces around it optional), spaces, other bytes. */
type MarkerToken =
  | { readonly kind: "letter"; readonly lower: number }
  | { readonly kind: "colon" }
  | { readonly kind: "space" }
  | { readonly kind: "bytes"; readonly bytes: Buffer };

/**
 * The text that opens a natural-language question inside a comment (default `nl:`), matched leniently: ASCII letters
 * in either case, optional whitespace between the comment opener and the marker and around each colon, any run of
 * whitespace for a space. So `/* NL: … *\/`, `/*nl:…*\/`, `/*  nl :  … *\/` and `-- Nl: …` all open a question with
 * the default marker, while `/* nl … *\/` (no colon), `/* note: … *\/` and `/* nlp: … *\/` do not.
 */
export class QuestionMarker {
  /** The marker as configured, trimmed (shown in messages). */
  readonly text: string;
  readonly #tokens: readonly MarkerToken[];
  /** The marker's word: its tokens without the final colon (`nl` of `nl:`), which picks and fresh questions share. */
  readonly #stemTokens: readonly MarkerToken[];
  /** The text of the marker's word (`nl`), for messages. */
  readonly stem: string;
  /** The marker at the start of a comment body. */
  readonly #opening: RegExp;
  /** A fresh question's opening: the word, `!`, the rest of the marker (`nl!:`). */
  readonly #freshOpening: RegExp;
  /**
   * A whole comment body that picks an interpretation: the word, `#`, a number (`nl#2`), and optionally the word
   * `remember` (any case) to confirm it (`nl#2 remember`).
   */
  readonly #pick: RegExp;
  /** A comment opener followed by the marker, anywhere in a text. */
  readonly #afterOpener: RegExp;
  #encodedTokens: Buffer | undefined;

  /** Throws `ConfigurationError` for a marker without a letter, digit or other visible character besides colons. */
  constructor(marker: string) {
    this.text = marker.trim();
    if (this.text.replaceAll(":", "").trim() === "") {
      throw new ConfigurationError(`the question marker must hold a word, e.g. "nl:", got ${JSON.stringify(marker)}`);
    }
    this.#tokens = tokenize(this.text);
    const stemLength = stemTokenCount(this.#tokens);
    this.#stemTokens = this.#tokens.slice(0, stemLength);
    this.stem = this.text.endsWith(":") ? this.text.slice(0, -1).trim() : this.text;
    const pattern = this.#tokens.map(tokenPattern).join("");
    const stemPattern = this.#stemTokens.map(tokenPattern).join("");
    const rest = this.#tokens.slice(stemLength).map(tokenPattern).join("");
    this.#opening = new RegExp(`^${WHITESPACE}*${pattern}`);
    this.#freshOpening = new RegExp(`^${WHITESPACE}*${stemPattern}!${rest}`);
    this.#pick = new RegExp(
      `^${WHITESPACE}*${stemPattern}#([0-9]{1,9})(${WHITESPACE}+${caseInsensitive("remember")})?${WHITESPACE}*$`,
    );
    // The pre-check looks for the word alone, so that picks and fresh questions reach `detectQuestion` too.
    this.#afterOpener = new RegExp(`(?:/\\*|--)${WHITESPACE}*${stemPattern}`);
  }

  /** The length of a fresh question's opening (`nl!:`, with the whitespace before it) in a comment `body`, or -1. */
  freshOpeningLength(body: string): number {
    const match = this.#freshOpening.exec(body);
    return match === null ? -1 : match[0].length;
  }

  /** The interpretation a whole comment `body` picks (`nl#2` → 2), or undefined when it is no pick. */
  pickNumber(body: string): number | undefined {
    const match = this.#pick.exec(body);
    return match === null ? undefined : Number(match[1]);
  }

  /** Whether a whole comment `body` that picks an interpretation also confirms it (`nl#2 remember`). */
  pickRemembers(body: string): boolean {
    const match = this.#pick.exec(body);
    return match !== null && match[2] !== undefined;
  }

  /** How a client picks interpretation `number` with this marker: `/* nl#2 *\/;`. */
  pickExample(number: number): string {
    return `/* ${this.stem}#${number} */;`;
  }

  /** How a client picks interpretation `number` and keeps it from now on: `/* nl#2 remember *\/;`. */
  rememberExample(number: number): string {
    return `/* ${this.stem}#${number} remember */;`;
  }

  /** The length of the marker (with the whitespace before it) that opens a comment `body`, or -1 when it does not. */
  openingLength(body: string): number {
    const match = this.#opening.exec(body);
    return match === null ? -1 : match[0].length;
  }

  /**
   * Whether `text` holds a comment opener followed by the marker's word (a question, a fresh question or a pick is
   * possible; strings are not lexed).
   */
  mayOccurIn(text: string): boolean {
    return this.#afterOpener.test(text);
  }

  /**
   * The byte-level twin of `mayOccurIn` over UTF-8 `bytes` from `offset`: two native searches for `/*` and `--`, then
   * a comparison at each opener found. Ordinary SQL without comments is never decoded.
   */
  mayOccurInBytes(bytes: Buffer, offset: number): boolean {
    for (const opener of COMMENT_OPENERS) {
      let found = bytes.indexOf(opener, offset);
      while (found >= 0) {
        if (this.#matchesBytesAt(bytes, skipWhitespace(bytes, found + 2))) return true;
        found = bytes.indexOf(opener, found + 1);
      }
    }
    return false;
  }

  /**
   * The marker word's tokens (the marker without its final colon: picks `nl#2` and fresh questions `nl!:` share it) for
   * the native pass-through relay, which runs the same byte-level test
   * (`packages/proxy/native/pass-through-relay.c`): per token a kind byte (1 letter, then its lower-case byte; 2 colon;
   * 3 space; 4 bytes, then their count and the bytes).
   */
  encodedTokens(): Buffer {
    this.#encodedTokens ??= this.#encodeTokens();
    return this.#encodedTokens;
  }

  #encodeTokens(): Buffer {
    const bytes: number[] = [];
    for (const token of this.#stemTokens) {
      switch (token.kind) {
        case "letter":
          bytes.push(1, token.lower);
          break;
        case "colon":
          bytes.push(2);
          break;
        case "space":
          bytes.push(3);
          break;
        case "bytes":
          bytes.push(4, token.bytes.length, ...token.bytes);
          break;
      }
    }
    return Buffer.from(bytes);
  }

  #matchesBytesAt(bytes: Buffer, start: number): boolean {
    let position = start;
    for (const token of this.#stemTokens) {
      switch (token.kind) {
        case "letter":
          if (position >= bytes.length || (bytes[position]! | 0x20) !== token.lower) return false;
          position++;
          break;
        case "colon":
          position = skipWhitespace(bytes, position);
          if (bytes[position] !== 0x3a) return false;
          position = skipWhitespace(bytes, position + 1);
          break;
        case "space":
          position = skipWhitespace(bytes, position);
          break;
        case "bytes":
          // Past the end is no match (as the relay's memcmp guard), not a RangeError from Buffer.compare.
          if (
            position + token.bytes.length > bytes.length ||
            bytes.compare(token.bytes, 0, token.bytes.length, position, position + token.bytes.length) !== 0
          )
            return false;
          position += token.bytes.length;
          break;
      }
    }
    return true;
  }
}

/** A pattern matching `word` (ASCII letters) in any case, without the `i` flag (which would fold the marker's other bytes). */
function caseInsensitive(word: string): string {
  return [...word].map((letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`).join("");
}

/**
 * The marker's tokens. Whitespace next to a colon is dropped (a colon already takes optional whitespace around it): two
 * adjacent whitespace runs would make the pattern backtrack quadratically over a long run of spaces.
 */
function tokenize(marker: string): MarkerToken[] {
  const tokens: MarkerToken[] = [];
  for (const character of marker) {
    if (/[A-Za-z]/.test(character)) tokens.push({ kind: "letter", lower: character.toLowerCase().charCodeAt(0) });
    else if (character === ":") {
      if (tokens.at(-1)?.kind === "space") tokens.pop();
      tokens.push({ kind: "colon" });
    } else if (/\s/.test(character)) {
      const last = tokens.at(-1)?.kind;
      if (last !== "space" && last !== "colon") tokens.push({ kind: "space" });
    } else tokens.push({ kind: "bytes", bytes: Buffer.from(character, "utf8") });
  }
  return tokens;
}

/** How many leading tokens form the marker's word: all but a final colon (`nl:` → `nl`), at least one. */
function stemTokenCount(tokens: readonly MarkerToken[]): number {
  return tokens.length > 1 && tokens.at(-1)?.kind === "colon" ? tokens.length - 1 : tokens.length;
}

function tokenPattern(token: MarkerToken): string {
  switch (token.kind) {
    case "letter": {
      const lower = String.fromCharCode(token.lower);
      return `[${lower}${lower.toUpperCase()}]`;
    }
    case "colon":
      return `${WHITESPACE}*:${WHITESPACE}*`;
    case "space":
      return `${WHITESPACE}+`;
    case "bytes":
      return token.bytes.toString("utf8").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
}

function skipWhitespace(bytes: Buffer, start: number): number {
  let position = start;
  while (position < bytes.length && WHITESPACE_BYTES.has(bytes[position]!)) position++;
  return position;
}
