import type { QuestionMarker } from "./question-marker";
import { scanStatements } from "./scan-statements";

/**
 * Whether a simple Query of which only `head` (its first bytes, decoded) has arrived may ask a natural-language
 * question there, by `detectQuestion`'s rules — for a Query too large to hold whole, which streams upstream unless its
 * head may ask. Lexing the head gives the query's first statements exactly (a statement that holds SQL in the head
 * holds it in the whole query; only the last one may go on, and a last `-` or `/` may begin a comment: both readings
 * are checked), so:
 * - a text PostgreSQL versions lex differently (a vertical tab outside strings and comments) never asks;
 * - a `-- nl: …` comment asks only in a query of comments alone: once the head holds SQL, none does;
 * - a `/* nl: … *\/` comment asks when its statement holds no SQL (the last statement may still get some: it counts),
 *   and a marked block comment cut off at the head's end counts too.
 * Markers past the head are not looked at: they are left to PostgreSQL, as comments.
 */
export function headMayAsk(head: string, marker: QuestionMarker): boolean {
  if (!marker.mayOccurIn(head)) return false;
  if (asksIn(head, marker)) return true;
  // A last `-` or `/` may open a comment with the byte after it: lexed that way too.
  if (head.endsWith("/")) return asksIn(`${head}*`, marker);
  if (head.endsWith("-")) return asksIn(`${head}-`, marker);
  return false;
}

function asksIn(text: string, marker: QuestionMarker): boolean {
  const { statements, versionDependent } = scanStatements(text);
  if (versionDependent) return false;
  const holdsSql = statements.some((statement) => statement.hasSql);
  return statements.some((statement) =>
    statement.comments.some(
      (comment) =>
        marker.openingLength(comment.body) >= 0 &&
        (comment.kind === "block" ? !statement.hasSql || comment.unterminated : !holdsSql),
    ),
  );
}
