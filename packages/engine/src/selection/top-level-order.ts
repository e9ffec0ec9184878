import { parseSync } from "libpg-query";

/**
 * True when the statement's outermost SELECT (or set operation) has an ORDER BY — a top-level `sortClause` in
 * PostgreSQL's own parse tree — so its row order is part of the answer. ORDER BY inside subqueries, CTEs or window
 * definitions does not count. SQL the parser rejects counts as unordered (its execution reports the error).
 * Needs `loadSqlParser()` (`sql/validate-sql.ts`) to have settled.
 */
export function ordersAtTopLevel(sql: string): boolean {
  let tree: { stmts?: Array<{ stmt?: { SelectStmt?: { sortClause?: unknown[] } } }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch {
    return false;
  }
  const sortClause = tree.stmts?.[0]?.stmt?.SelectStmt?.sortClause;
  return Array.isArray(sortClause) && sortClause.length > 0;
}
