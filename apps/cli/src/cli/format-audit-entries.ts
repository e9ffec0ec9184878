import type { QuestionAuditRow } from "@nlq/adapters";

/**
 * Text from a client (a question, an application name) as one printable line: control and bidirectional formatting
 * characters shown as `\u{…}` escapes so that nothing recorded can move the cursor or recolour a terminal, newlines as
 * spaces for one-line fields.
 */
export function printable(text: string, oneLine = true): string {
  const flat = oneLine ? text.replace(/\r\n|\r|\n/g, " ") : text;
  return flat.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, (character) =>
    character === "\n" ? "\n" : `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}

function where(entry: QuestionAuditRow): string {
  const details = [entry.applicationName, entry.clientAddress].filter((value): value is string => Boolean(value));
  return details.length === 0
    ? entry.surface
    : `${entry.surface} (${details.map((value) => printable(value)).join(", ")})`;
}

function outcome(entry: QuestionAuditRow): string {
  if (!entry.ok) return `failed ${entry.errorCode ?? "XX000"}`;
  const rows =
    entry.rows === null ? "" : `${entry.rows} ${entry.rows === 1 ? "row" : "rows"}${entry.truncated ? " (cut)" : ""}`;
  const confidence = entry.confidence === null ? "" : `, confidence ${Math.round(entry.confidence * 100)}%`;
  return `${rows}${confidence}`;
}

/**
 * Audit entries as text, newest first: a header line per entry (time, role, surface and client, outcome), then the
 * question, the SQL (or the error), the confidence's basis and the interpretations offered.
 */
export function formatAuditEntries(entries: readonly QuestionAuditRow[]): string {
  if (entries.length === 0) return "(no entries)\n";
  const blocks = entries.map((entry) => {
    const lines = [
      `${entry.askedAt.toISOString()}  ${printable(entry.role)}  ${where(entry)}  ${outcome(entry)}`,
      `  question: ${printable(entry.question)}`,
    ];
    if (entry.sql !== null) lines.push(`  sql: ${printable(entry.sql)}`);
    if (!entry.ok) lines.push(`  error: ${printable(entry.errorMessage ?? "")}`);
    if (entry.confidenceBasis) lines.push(`  basis: ${printable(entry.confidenceBasis)}`);
    for (const [index, interpretation] of (entry.interpretations ?? []).entries()) {
      const support = interpretation.support === undefined ? "" : `, support ${interpretation.support}`;
      const rows = interpretation.rows === undefined ? "" : `, ${interpretation.rows} rows`;
      const difference = interpretation.difference ? ` — ${printable(interpretation.difference)}` : "";
      lines.push(`  interpretation ${index + 1}${support}${rows}: ${printable(interpretation.sql)}${difference}`);
    }
    return lines.join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}
