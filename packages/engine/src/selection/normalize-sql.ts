import { parseSync } from "libpg-query";

/** Fields of libpg-query's JSON tree that record where text stood, not what it means. */
const positionFields = new Set(["location", "stmt_location", "stmt_len"]);

function withoutPositions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPositions);
  if (node === null || typeof node !== "object") return node;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (!positionFields.has(key)) kept[key] = withoutPositions(value);
  return kept;
}

/**
 * A key under which two SQL texts that PostgreSQL parses to the same statement are equal, so identical candidates run
 * once: PostgreSQL's own parse tree (libpg-query) with token positions removed, as JSON. Whitespace, comments,
 * keyword case, unquoted identifier case, optional keywords PostgreSQL drops (`AS` of a column alias, `INNER`) and
 * trailing semicolons do not change it; constants, quoted identifiers and everything else do.
 *
 * libpg-query's `fingerprint` and `normalize` are deliberately not used: both replace constants (`x = 1` and `x = 2`
 * share a fingerprint), and candidates that differ in a constant can return different rows. Text the parser rejects
 * keys on its trimmed text without trailing semicolons. Needs `loadSqlParser()` (`sql/validate-sql.ts`) to have settled.
 */
export function normalizedSqlKey(sql: string): string {
  try {
    return JSON.stringify(withoutPositions(parseSync(sql).stmts ?? []));
  } catch {
    return sql.trim().replace(/(\s*;)+$/, "");
  }
}
