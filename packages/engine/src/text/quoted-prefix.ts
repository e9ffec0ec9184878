/** Most characters of user input quoted back in an error message (`quotedPrefix`'s default). */
export const QUOTED_PREFIX_CHARACTERS = 80;

/**
 * `text` as an error message quotes it: at most `maximumCharacters` characters (code points, default 80) followed by
 * `…` when it was longer, JSON-quoted so newlines and quotes stay on one line. Every message that quotes user input
 * (a question, a value) goes through it, so a megabyte of input never comes back in an error.
 */
export function quotedPrefix(text: string, maximumCharacters = QUOTED_PREFIX_CHARACTERS): string {
  return JSON.stringify(textPrefix(text, maximumCharacters));
}

/** At most `maximumCharacters` code points of `text` (default 80), followed by `…` when it was longer; unquoted. */
export function textPrefix(text: string, maximumCharacters = QUOTED_PREFIX_CHARACTERS): string {
  if (text.length <= maximumCharacters) return text;
  const characters = Array.from(text.slice(0, maximumCharacters * 2 + 1));
  return characters.length > maximumCharacters ? `${characters.slice(0, maximumCharacters).join("")}…` : text;
}
