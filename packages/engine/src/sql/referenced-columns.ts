import { parseSync } from "libpg-query";
import { forEachParseNode } from "./parse-tree-nodes";

/** A relation named in a FROM clause (or JOIN), as written: schema only when qualified. */
export interface ReferencedTable {
  readonly schema?: string;
  readonly name: string;
}

/** What a statement reads, by name, from PostgreSQL's own parse tree. */
export interface ReferencedColumns {
  /** Relations in FROM/JOIN clauses anywhere in the statement (CTE names included: they are not told apart). */
  readonly tables: readonly ReferencedTable[];
  /** Column names referenced anywhere (`t.c` and `c` both give `c`; `JOIN … USING (c)` gives `c`). */
  readonly columns: ReadonlySet<string>;
  /** True when the statement uses `*` or `t.*` (the referenced tables' columns are then all used). */
  readonly star: boolean;
}

type StringNode = { String?: { sval?: string }; A_Star?: unknown };

/**
 * The tables and column names a statement references (every `RangeVar`, `ColumnRef` and `USING` column), or
 * undefined when the parser rejects it. Names are as PostgreSQL folds them (unquoted identifiers lower-cased).
 * Columns are not resolved to tables: a name counts for every referenced table that has it. Needs `loadSqlParser()`.
 */
export function referencedColumns(sql: string): ReferencedColumns | undefined {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return undefined;
  }
  const tables = new Map<string, ReferencedTable>();
  const columns = new Set<string>();
  let star = false;
  forEachParseNode(tree, (type, value) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const fields = value as Record<string, unknown>;
      if (type === "RangeVar" && typeof fields.relname === "string") {
        const schema = typeof fields.schemaname === "string" ? fields.schemaname : undefined;
        tables.set(`${schema ?? ""}.${fields.relname}`, { ...(schema ? { schema } : {}), name: fields.relname });
      } else if (type === "ColumnRef") {
        const last = (fields.fields as StringNode[] | undefined)?.at(-1);
        if (last?.A_Star !== undefined) star = true;
        else if (last?.String?.sval) columns.add(last.String.sval);
      } else if (type === "JoinExpr") {
        for (const column of (fields.usingClause as StringNode[] | undefined) ?? [])
          if (column.String?.sval) columns.add(column.String.sval);
      }
    }
  });
  return { tables: [...tables.values()], columns, star };
}
