import { maxAnswerSentenceLength } from "@nlq/prompts";

/**
 * Control characters (C0, DEL, C1: terminal escapes, bells, carriage returns), zero-width characters and
 * bidirectional formatting characters (which can make text read differently than it is stored).
 */
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * Model output made safe to show as one line of plain text: unsafe characters become spaces, whitespace is collapsed,
 * the ends are trimmed, and a text past `maxLength` characters is cut with `…`. Returns "" when nothing is left. It
 * does not try to recognise markup: every surface prints the sentence as text (the web app never as HTML).
 */
export function plainSentence(text: string, maxLength = maxAnswerSentenceLength): string {
  const flat = text.replace(unsafeCharacters, " ").replace(/\s+/g, " ").trim();
  const characters = Array.from(flat);
  return characters.length > maxLength
    ? `${characters
        .slice(0, maxLength - 1)
        .join("")
        .trimEnd()}…`
    : flat;
}
