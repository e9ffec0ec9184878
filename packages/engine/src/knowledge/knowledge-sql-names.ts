import { parseSync } from "libpg-query";
import { forEachParseNode } from "../sql/parse-tree-nodes";
import type { ReferencedTable } from "../sql/referenced-columns";
import { sqlParserReady } from "../sql/validate-sql";

/** A column an entry's SQL names: its table when the SQL qualifies it with a schema (`sales.orders.total`). */
export interface KnowledgeSqlColumn {
  readonly table?: Required<ReferencedTable>;
  readonly name: string;
}

/** What a knowledge entry's SQL names, from PostgreSQL's own parse tree (names as PostgreSQL folds them). */
export interface KnowledgeSqlNames {
  /** Relations it reads (`FROM`, `JOIN`, subqueries), its own CTEs left out. */
  readonly tables: readonly ReferencedTable[];
  /** Columns it names; `o.total` gives `total` without a table (`o` may be an alias). */
  readonly columns: readonly KnowledgeSqlColumn[];
}

/** Thrown when an entry's SQL is checked before `loadSqlParser()` has settled. */
export class SqlParserNotLoadedError extends Error {
  constructor() {
    super("the SQL parser is not loaded: await loadSqlParser() before checking knowledge against a role");
    this.name = "SqlParserNotLoadedError";
  }
}

const statementStart = /^\s*(select|with|values|table)\b/i;

type NameNode = { String?: { sval?: string }; A_Star?: unknown };

/**
 * The tables and columns a knowledge entry's SQL names — a metric's expression (`sum(amount_cents) / 100.0`), a rule's
 * condition (`is_test = false`), or a whole query — or undefined when PostgreSQL's parser rejects it. Throws
 * `SqlParserNotLoadedError` before `loadSqlParser()` has settled, so a caller that forgot cannot pass an entry unchecked.
 */
export function knowledgeSqlNames(sql: string): KnowledgeSqlNames | undefined {
  if (!sqlParserReady()) throw new SqlParserNotLoadedError();
  let tree: unknown;
  try {
    tree = parseSync(statementStart.test(sql) ? sql : `SELECT ${sql}`);
  } catch {
    return undefined;
  }
  const cteNames = new Set<string>();
  // Names the SQL gives its own results (`AS n`, a subquery's or CTE's column list): `ORDER BY n` is not a column of
  // the catalog. A column named like one of them passes unqualified — PostgreSQL still checks it when the SQL runs.
  const ownNames = new Set<string>();
  const tables: ReferencedTable[] = [];
  const columns: KnowledgeSqlColumn[] = [];
  forEachParseNode(tree, (type, value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const fields = value as Record<string, unknown>;
    if (type === "CommonTableExpr" && typeof fields.ctename === "string") {
      cteNames.add(fields.ctename);
      addNames(ownNames, fields.aliascolnames);
    } else if (type === "ResTarget" && typeof fields.name === "string") ownNames.add(fields.name);
    else if (type === "alias" || type === "Alias") addNames(ownNames, fields.colnames);
    else if (type === "RangeVar" && typeof fields.relname === "string") {
      const schema = typeof fields.schemaname === "string" ? fields.schemaname : undefined;
      tables.push({ ...(schema ? { schema } : {}), name: fields.relname });
    } else if (type === "ColumnRef") {
      const parts = (fields.fields as NameNode[] | undefined) ?? [];
      const name = parts.at(-1)?.String?.sval;
      if (name === undefined) return; // `*` or `t.*`
      const qualifiers = parts.slice(0, -1).map((part) => part.String?.sval ?? "");
      // `schema.table.column` (or `database.schema.table.column`) names its table; `t.column` may be an alias's.
      const table = qualifiers.length >= 2 ? { schema: qualifiers.at(-2)!, name: qualifiers.at(-1)! } : undefined;
      columns.push({ ...(table ? { table } : {}), name });
    }
  });
  return {
    tables: tables.filter((table) => table.schema !== undefined || !cteNames.has(table.name)),
    columns: columns.filter((column) => column.table !== undefined || !ownNames.has(column.name)),
  };
}

function addNames(names: Set<string>, list: unknown): void {
  for (const node of Array.isArray(list) ? (list as NameNode[]) : [])
    if (node.String?.sval) names.add(node.String.sval);
}
