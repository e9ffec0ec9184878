import nodeSqlParser from "node-sql-parser";

/** A gold query translated to PostgreSQL, or why it could not be. */
export type GoldTranslation =
  | { readonly ok: true; readonly sql: string }
  | { readonly ok: false; readonly error: string };

const parser = new nodeSqlParser.Parser();

/** AST keys whose string value is a name (table, column, alias, schema): lower-cased like the warehouse's names. */
const nameKeys = new Set(["table", "column", "as", "db"]);

/**
 * Rewrites MySQL-only spellings in place, everywhere in the tree: a double-quoted string (`"France"`, a string literal in
 * MySQL, an identifier in PostgreSQL) becomes a single-quoted one, and every table, column and alias name is
 * lower-cased, a backtick-quoted qualifier (`` `t1`.x ``) included (MySQL resolves them case-insensitively; the warehouse loader lower-cases every name, and PostgreSQL
 * compares quoted names exactly).
 */
function rewriteMysqlSpellings(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteMysqlSpellings(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  if (record.type === "double_quote_string") record.type = "single_quote_string";
  // MySQL's `a JOIN b JOIN c ON …` (a join without ON is a cross join there); PostgreSQL needs CROSS JOIN spelled out.
  if (typeof record.join === "string" && /^(INNER )?JOIN$/i.test(record.join) && !record.on && !record.using)
    record.join = "CROSS JOIN";
  for (const [key, value] of Object.entries(record)) {
    const quoted = value as { type?: unknown; value?: unknown } | null;
    if (nameKeys.has(key) && quoted?.type === "backticks_quote_string" && typeof quoted.value === "string") {
      record[key] = quoted.value.toLowerCase();
    } else if (typeof value === "string") {
      if (nameKeys.has(key)) record[key] = value.toLowerCase();
    } else {
      rewriteMysqlSpellings(value);
    }
  }
}

/**
 * Translates one of Spider's gold queries (MySQL dialect: backticks, double-quoted strings, names in any case) to
 * PostgreSQL with `node-sql-parser` (parsed as MySQL, printed as PostgreSQL, every name quoted and lower-cased). A
 * query the parser cannot read, or that is more than one statement, comes back as `{ ok: false }` with the reason;
 * whether the result runs on PostgreSQL (which is stricter, e.g. about non-aggregated columns under GROUP BY) is for
 * the caller to find out by running it.
 */
export function translateMysqlGold(mysql: string): GoldTranslation {
  let tree: ReturnType<typeof parser.astify>;
  try {
    tree = parser.astify(mysql.trim().replace(/;\s*$/, ""), { database: "MySQL" });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `MySQL→PostgreSQL translation failed: ${message.split("\n")[0]}` };
  }
  if (Array.isArray(tree) && tree.length !== 1)
    return { ok: false, error: `MySQL→PostgreSQL translation failed: ${tree.length} statements, expected one` };
  rewriteMysqlSpellings(tree);
  try {
    return { ok: true, sql: parser.sqlify(tree, { database: "PostgresQL" }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `MySQL→PostgreSQL translation failed: ${message.split("\n")[0]}` };
  }
}
