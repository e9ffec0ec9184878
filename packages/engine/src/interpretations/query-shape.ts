import { parseSync } from "libpg-query";
import { forEachParseNode } from "../sql/parse-tree-nodes";
import { renderExpression } from "./render-expression";

/**
 * What a SELECT asks, clause by clause, read from PostgreSQL's own parse tree (libpg-query) and rendered short: the
 * parts two interpretations of one question are compared on. Expressions are rendered by `renderExpression`.
 */
export interface QueryShape {
  /** Relations read anywhere in the statement (FROM, JOIN, subqueries), as written; CTE names left out. Sorted. */
  readonly tables: readonly string[];
  /** The top-level select list, aliases ignored. */
  readonly outputs: readonly string[];
  /** The top-level WHERE, split at its top-level ANDs. */
  readonly filters: readonly string[];
  /** The top-level HAVING, split at its top-level ANDs. */
  readonly having: readonly string[];
  readonly grouping: readonly string[];
  /** ORDER BY items, with `DESC` where written. */
  readonly ordering: readonly string[];
  readonly limit?: string;
  readonly distinct: boolean;
  /** `UNION`, `UNION ALL`, `INTERSECT`, `EXCEPT` … when the top level combines selects (its left arm is described). */
  readonly setOperation?: string;
}

type Node = Record<string, unknown>;

function conjuncts(node: unknown): string[] {
  if (node === undefined || node === null) return [];
  const bool = (node as Node).BoolExpr as Node | undefined;
  if (bool?.boolop === "AND_EXPR" && Array.isArray(bool.args)) return bool.args.flatMap(conjuncts);
  return [renderExpression(node)];
}

function relationsOf(tree: unknown): string[] {
  const tables = new Set<string>();
  const cteNames = new Set<string>();
  forEachParseNode(tree, (key, value) => {
    if (key === "RangeVar" && value && typeof value === "object") {
      const range = value as { schemaname?: string; relname?: string };
      if (range.relname) tables.add(range.schemaname ? `${range.schemaname}.${range.relname}` : range.relname);
    }
    if (key === "CommonTableExpr" && value && typeof value === "object") {
      const name = (value as { ctename?: string }).ctename;
      if (name) cteNames.add(name);
    }
  });
  return [...tables].filter((table) => !cteNames.has(table)).sort();
}

function setOperationName(select: Node): string | undefined {
  const operation = select.op as string | undefined;
  if (!operation || operation === "SETOP_NONE") return undefined;
  return `${operation.replace("SETOP_", "")}${select.all ? " ALL" : ""}`;
}

/**
 * The shape of one SELECT statement, or undefined when the text does not parse as exactly one SELECT (the caller
 * then compares results only). Needs `loadSqlParser()`.
 */
export function queryShape(sql: string): QueryShape | undefined {
  let tree: { stmts?: Array<{ stmt?: Node }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch {
    return undefined;
  }
  if (tree.stmts?.length !== 1) return undefined;
  const top = tree.stmts[0]?.stmt?.SelectStmt as Node | undefined;
  if (!top) return undefined;
  const setOperation = setOperationName(top);
  let select = top;
  while (setOperationName(select) && select.larg) select = select.larg as Node;
  const targets = Array.isArray(select.targetList) ? (select.targetList as Node[]) : [];
  const ordering = Array.isArray(top.sortClause) ? (top.sortClause as Node[]) : [];
  return {
    tables: relationsOf(top),
    outputs: targets.map((target) => renderExpression((target.ResTarget as Node | undefined)?.val)),
    filters: conjuncts(select.whereClause),
    having: conjuncts(select.havingClause),
    grouping: Array.isArray(select.groupClause) ? select.groupClause.map((item) => renderExpression(item)) : [],
    ordering: ordering.map((item) => {
      const sort = (item.SortBy ?? {}) as Node;
      return `${renderExpression(sort.node)}${sort.sortby_dir === "SORTBY_DESC" ? " DESC" : ""}`;
    }),
    ...(top.limitCount === undefined ? {} : { limit: renderExpression(top.limitCount) }),
    distinct: Array.isArray(select.distinctClause),
    ...(setOperation === undefined ? {} : { setOperation }),
  };
}
