import type { Answer, Interpretation } from "@nlq/engine";
import { formatTable } from "./format-table";

const maxSqlLength = 400;

/** Model-written SQL and data values as one line of plain text: no control or bidirectional characters. */
function plainLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function support(interpretation: Interpretation, candidates: number): string {
  return `${interpretation.support} of ${candidates} ${candidates === 1 ? "candidate" : "candidates"}`;
}

function preview(interpretation: Interpretation): string[] {
  const rows = interpretation.rows.map((row) => row.map((value) => (value === null ? null : plainLine(value))));
  const table = formatTable(interpretation.columns.map(plainLine), rows).split("\n");
  // formatTable counts the rows it was given; say how many the reading returned.
  table[table.length - 1] =
    `(${interpretation.rowCount}${interpretation.truncated ? "+" : ""} ${interpretation.rowCount === 1 && !interpretation.truncated ? "row" : "rows"}${interpretation.rowCount > rows.length ? `, first ${rows.length} shown` : ""})`;
  return table.map((line) => `     ${line}`);
}

/**
 * The interpretations of an answer whose candidates disagreed, as `nlq ask` prints them after the selection line:
 * a heading (with why nlq would ask, when it would, and how to answer with another: `--reading N [--remember]`), then
 * each reading — number, support, what the phrase in doubt means in it, its SQL on one line, how it differs from the
 * chosen one, and the first rows it returned. Nothing when the candidates agreed.
 */
export function formatInterpretations(answer: Answer): string[] {
  const interpretations = answer.interpretations ?? [];
  if (interpretations.length === 0) return [];
  const candidates = answer.selection.candidates;
  const heading = answer.needsChoice
    ? `interpretations: the readings' results differ (${answer.choiceBasis ?? ""}); the rows above are #1's — which did you mean? (--reading N answers with #N; add --remember to keep it from now on)`
    : `interpretations: the candidates disagree; the answer is #1 (${answer.choiceBasis ?? ""})`;
  const lines = [heading];
  for (const interpretation of interpretations) {
    const sql = plainLine(interpretation.sql);
    lines.push(
      `  #${interpretation.number}${interpretation.chosen ? " (chosen)" : ""}, ${support(interpretation, candidates)}${interpretation.reading ? `, «${interpretation.reading.phrase}» = ${interpretation.reading.chosen.label}` : ""}: ${sql.length > maxSqlLength ? `${sql.slice(0, maxSqlLength)}…` : sql}`,
    );
    if (!interpretation.chosen) {
      lines.push(`     differs: ${plainLine(interpretation.difference)}`);
      lines.push(...preview(interpretation));
    }
  }
  return lines;
}
