import { extractJsonObject } from "../llm/recover-json";

/**
 * Recovers the one SQL query a model meant as its answer from what models really return: a bare query, a query in a
 * Markdown fence (```sql … ```, ``` … ```), prose before or after it, a chain of thought with several SQL blocks (the
 * final answer wins: the first block after the last "Final SQL" / "Final Optimized SQL Query" / "Final answer"
 * heading, otherwise the last SQL block), a JSON object whose `sql` field holds any of these, and trailing
 * semicolons. Returns "" when the text holds no query (an empty `sql`, an empty final fence): callers treat that as
 * "unanswerable". Quoted strings, quoted identifiers and comments inside the query are left untouched.
 */
export function extractSql(text: string): string {
  return extractFrom(text, 0);
}

/** A heading that introduces the final answer, e.g. "**Final Optimized SQL Query:**", "Final SQL:", "Final answer". */
const finalMarker =
  /final\s+(?:optimi[sz]ed\s+|corrected\s+|revised\s+)?(?:sql(?:\s+query)?|postgre(?:sql|s)\s+query|query|answer)\b[^\n`]*/gi;

/** Languages of fences that may hold the answer (an untagged fence included). */
const sqlFenceLanguages = new Set(["", "sql", "postgresql", "postgres", "pgsql", "psql", "plpgsql"]);

/** A query starts with one of these words (after comments and opening parentheses). */
const queryStart = /^(?:with|select|values|table|\()/i;

interface Fence {
  readonly language: string;
  readonly body: string;
  /** Offset of the opening backticks. */
  readonly start: number;
}

function extractFrom(text: string, depth: number): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  if (depth < 2) {
    const fromJson = sqlFieldOfJson(trimmed);
    if (fromJson !== undefined) return extractFrom(fromJson, depth + 1);
  }
  const fences = findFences(trimmed);
  const sqlFences = fences.filter(
    (fence) => sqlFenceLanguages.has(fence.language) && (fence.body.trim() === "" || looksLikeQuery(fence.body)),
  );
  const markerEnd = lastFinalMarkerEnd(trimmed);
  if (sqlFences.length > 0) {
    const afterMarker = markerEnd === undefined ? undefined : sqlFences.find((fence) => fence.start >= markerEnd);
    if (afterMarker) return cleanQuery(afterMarker.body);
    if (markerEnd !== undefined) {
      // A marker followed by an unfenced query (earlier blocks were working steps).
      const unfenced = queryInProse(trimmed.slice(markerEnd));
      if (unfenced !== "") return unfenced;
    }
    const last = sqlFences[sqlFences.length - 1];
    return last ? cleanQuery(last.body) : "";
  }
  if (depth < 2) {
    // A ```json fence whose object holds the SQL.
    for (const fence of [...fences].reverse()) {
      const fromJson = sqlFieldOfJson(fence.body.trim());
      if (fromJson !== undefined) return extractFrom(fromJson, depth + 1);
    }
  }
  if (markerEnd !== undefined) {
    const afterMarker = queryInProse(trimmed.slice(markerEnd));
    if (afterMarker !== "") return afterMarker;
  }
  return queryInProse(trimmed, { last: true });
}

/** The `sql` string of a JSON object the text is (or is fenced as), or undefined. */
function sqlFieldOfJson(text: string): string | undefined {
  if (!text.startsWith("{") && !/^```(?:json)?\s*\{/i.test(text)) return undefined;
  const value = extractJsonObject(text);
  if (value && typeof value === "object" && "sql" in value) {
    const sql = (value as { sql: unknown }).sql;
    if (typeof sql === "string") return sql;
  }
  return undefined;
}

/** Markdown fences in order; an unterminated last fence runs to the end of the text. */
function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  const opening = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[ \t]*(?:\n|$)/g;
  let match = opening.exec(text);
  while (match) {
    const fenceMarker = match[2] ?? "```";
    const start = match.index + (match[1]?.length ?? 0);
    const bodyStart = match.index + match[0].length;
    const closing = new RegExp(
      `\\n[ \\t]*${fenceMarker[0] === "`" ? "`" : "~"}{${fenceMarker.length},}[ \\t]*(?=\\n|$)`,
      "g",
    );
    closing.lastIndex = bodyStart - 1;
    const close = closing.exec(text);
    const bodyEnd = close ? close.index : text.length;
    fences.push({ language: (match[3] ?? "").toLowerCase(), body: text.slice(bodyStart, bodyEnd), start });
    if (!close) break;
    opening.lastIndex = close.index + close[0].length;
    match = opening.exec(text);
  }
  if (fences.length === 0) {
    // Single-line fences: ```sql SELECT 1```
    const inline = /```(sql|postgresql|postgres|pgsql)?\s+([\s\S]*?)```/gi;
    for (let found = inline.exec(text); found; found = inline.exec(text)) {
      fences.push({ language: (found[1] ?? "").toLowerCase(), body: found[2] ?? "", start: found.index });
    }
  }
  return fences;
}

function lastFinalMarkerEnd(text: string): number | undefined {
  let end: number | undefined;
  for (const match of text.matchAll(finalMarker)) end = (match.index ?? 0) + match[0].length;
  return end;
}

function withoutLeadingComments(text: string): string {
  let rest = text.trimStart();
  for (;;) {
    if (rest.startsWith("--")) {
      const newline = rest.indexOf("\n");
      rest = newline < 0 ? "" : rest.slice(newline + 1).trimStart();
    } else if (rest.startsWith("/*")) {
      const close = rest.indexOf("*/");
      rest = close < 0 ? "" : rest.slice(close + 2).trimStart();
    } else {
      return rest;
    }
  }
}

function looksLikeQuery(text: string): boolean {
  return queryStart.test(withoutLeadingComments(text));
}

/** Where a query begins on a line: at its start, after a label ("SQL:", "**Query:**") or after a backtick. */
const statementStart =
  /(?:^|:\**\s*|`)((?:with\s+(?:recursive\s+)?"?\w+"?\s*(?:\([^)]*\))?\s*as\b)|select\b|\(\s*select\b)/i;

/**
 * The query in unfenced text: from a line (or a line's tail after a label such as "SQL:") that starts with
 * SELECT/WITH, to the first semicolon outside quotes, or to a blank line followed by prose. `last` takes the last
 * such query in the text, otherwise the first.
 */
function queryInProse(text: string, options: { last?: boolean } = {}): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const starts: Array<{ line: number; column: number; inBackticks: boolean }> = [];
  lines.forEach((line, index) => {
    const bullet = /^[\s>*_#+-]*/.exec(line)?.[0].length ?? 0;
    const match = statementStart.exec(line.slice(bullet));
    if (match?.[1]) {
      const column = bullet + match.index + match[0].length - match[1].length;
      starts.push({ line: index, column, inBackticks: line[column - 1] === "`" });
    }
  });
  let chosen = "";
  let nextFreeLine = 0;
  for (const start of starts) {
    if (start.line < nextFreeLine) continue; // a SELECT inside the query taken before
    const collected: string[] = [];
    let index = start.line;
    for (; index < lines.length; index += 1) {
      const line = index === start.line ? (lines[index] ?? "").slice(start.column) : (lines[index] ?? "");
      if (line.trim() === "") {
        const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== "");
        if (next === undefined || !continuesQuery(next)) break;
      }
      collected.push(line);
      if (start.inBackticks && line.includes("`")) break;
    }
    nextFreeLine = index + 1;
    let query = collected.join("\n");
    if (start.inBackticks && query.includes("`")) query = query.slice(0, query.indexOf("`"));
    const end = firstTopLevelSemicolon(query);
    chosen = cleanQuery(end < 0 ? query : query.slice(0, end));
    if (!options.last) return chosen;
  }
  return chosen;
}

/** Whether a line after a blank line still belongs to the query (indented, a clause keyword, a parenthesis). */
function continuesQuery(line: string): boolean {
  return (
    /^\s+\S/.test(line) ||
    /^\s*(?:from|where|join|left|right|inner|full|cross|on|and|or|group|order|having|limit|offset|union|intersect|except|select|with|window|fetch|\)|,|--)/i.test(
      line,
    )
  );
}

/** Index of the first `;` outside quotes and comments, or -1. */
function firstTopLevelSemicolon(sql: string): number {
  let index = 0;
  while (index < sql.length) {
    const character = sql[index];
    if (character === "'" || character === '"') {
      const close = sql.indexOf(character, index + 1);
      if (close < 0) return -1;
      index = close + 1;
      continue;
    }
    if (sql.startsWith("--", index)) {
      const newline = sql.indexOf("\n", index);
      if (newline < 0) return -1;
      index = newline + 1;
      continue;
    }
    if (sql.startsWith("/*", index)) {
      const close = sql.indexOf("*/", index + 2);
      if (close < 0) return -1;
      index = close + 2;
      continue;
    }
    if (sql.startsWith("$$", index)) {
      const close = sql.indexOf("$$", index + 2);
      if (close < 0) return -1;
      index = close + 2;
      continue;
    }
    if (character === ";") return index;
    index += 1;
  }
  return -1;
}

/** Trims, drops a stray leading `sql` language tag and inline backticks, and removes trailing semicolons. */
function cleanQuery(text: string): string {
  let query = text.trim();
  if (/^`[^`]+`$/.test(query)) query = query.slice(1, -1).trim();
  query = query.replace(/^(?:sql|postgresql)\s*\n/i, "");
  for (;;) {
    const next = query.replace(/;\s*$/, "").trimEnd();
    if (next === query) return query;
    query = next;
  }
}
