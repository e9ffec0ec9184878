/**
 * A short, readable rendering of one expression of PostgreSQL's parse tree (libpg-query's JSON), for the one-line
 * difference between two interpretations: `avg(s.capacity)`, `s.year = 2014`, `name LIKE 'A%'`, `count(*)`. Not a
 * deparser: nodes it does not know render as `…`, and the text is capped. Values come from the SQL a model wrote, so
 * they are hostile text: control characters are dropped and long literals shortened; surfaces show the line as text.
 */

type Node = Record<string, unknown>;

const maxLength = 80;
const maxLiteral = 30;

function plain(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ");
}

function literal(text: string): string {
  const flat = plain(text);
  const short = flat.length > maxLiteral ? `${flat.slice(0, maxLiteral)}…` : flat;
  return `'${short.replaceAll("'", "''")}'`;
}

function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    const node = item as Node;
    if ("A_Star" in node) return "*";
    const value = (node.String as { sval?: string } | undefined)?.sval;
    return value === undefined ? "…" : plain(value);
  });
}

function constant(node: Node): string {
  if (node.isnull) return "NULL";
  if (node.ival !== undefined) return String((node.ival as { ival?: number }).ival ?? 0);
  if (node.fval !== undefined) return String((node.fval as { fval?: string }).fval ?? "0");
  if (node.boolval !== undefined) return (node.boolval as { boolval?: boolean }).boolval ? "true" : "false";
  if (node.sval !== undefined) return literal((node.sval as { sval?: string }).sval ?? "");
  if (node.bsval !== undefined) return literal((node.bsval as { bsval?: string }).bsval ?? "");
  return "…";
}

const likeOperators: Record<string, string> = {
  "~~": "LIKE",
  "!~~": "NOT LIKE",
  "~~*": "ILIKE",
  "!~~*": "NOT ILIKE",
};

function operatorExpression(node: Node, depth: number): string {
  const operator = names(node.name).join(".");
  const left = node.lexpr === undefined ? undefined : renderNode(node.lexpr, depth + 1);
  const right = node.rexpr === undefined ? undefined : renderNode(node.rexpr, depth + 1);
  switch (node.kind) {
    case "AEXPR_IN":
      return `${left} ${operator === "=" ? "IN" : "NOT IN"} ${right}`;
    case "AEXPR_BETWEEN":
    case "AEXPR_NOT_BETWEEN": {
      const bounds = Array.isArray(node.rexpr) ? node.rexpr.map((bound) => renderNode(bound, depth + 1)) : ["…", "…"];
      return `${left} ${node.kind === "AEXPR_BETWEEN" ? "BETWEEN" : "NOT BETWEEN"} ${bounds[0]} AND ${bounds[1]}`;
    }
    case "AEXPR_LIKE":
    case "AEXPR_ILIKE":
      return `${left} ${likeOperators[operator] ?? operator} ${right}`;
    case "AEXPR_DISTINCT":
      return `${left} IS DISTINCT FROM ${right}`;
    case "AEXPR_NOT_DISTINCT":
      return `${left} IS NOT DISTINCT FROM ${right}`;
    default:
      return left === undefined ? `${operator}${right}` : `${left} ${operator} ${right}`;
  }
}

function functionCall(node: Node, depth: number): string {
  const name = names(node.funcname)
    .filter((part) => part !== "pg_catalog")
    .join(".");
  if (node.agg_star) return `${name}(*)`;
  const args = Array.isArray(node.args) ? node.args.map((argument) => renderNode(argument, depth + 1)) : [];
  return `${name}(${node.agg_distinct ? "DISTINCT " : ""}${args.join(", ")})`;
}

function renderNode(value: unknown, depth: number): string {
  if (depth > 6 || value === null || typeof value !== "object") return "…";
  if (Array.isArray(value)) return `(${value.map((item) => renderNode(item, depth + 1)).join(", ")})`;
  const [type, body] = Object.entries(value as Node)[0] ?? [];
  const node = (body ?? {}) as Node;
  switch (type) {
    case "ColumnRef":
      return names(node.fields).join(".");
    case "A_Const":
      return constant(node);
    case "FuncCall":
      return functionCall(node, depth);
    case "A_Expr":
      return operatorExpression(node, depth);
    case "BoolExpr": {
      const args = Array.isArray(node.args) ? node.args.map((argument) => renderNode(argument, depth + 1)) : [];
      if (node.boolop === "NOT_EXPR") return `NOT ${args[0] ?? "…"}`;
      return args.join(node.boolop === "OR_EXPR" ? " OR " : " AND ");
    }
    case "TypeCast": {
      const typeName = names((node.typeName as Node | undefined)?.names)
        .filter((part) => part !== "pg_catalog")
        .join(".");
      return `${renderNode(node.arg, depth + 1)}::${typeName}`;
    }
    case "NullTest":
      return `${renderNode(node.arg, depth + 1)} ${node.nulltesttype === "IS_NOT_NULL" ? "IS NOT NULL" : "IS NULL"}`;
    case "SubLink":
      return node.subLinkType === "EXISTS_SUBLINK" ? "EXISTS (subquery)" : "(subquery)";
    case "CaseExpr":
      return "CASE …";
    case "CoalesceExpr":
      return `coalesce(${Array.isArray(node.args) ? node.args.map((argument) => renderNode(argument, depth + 1)).join(", ") : ""})`;
    case "A_Star":
      return "*";
    case "ParamRef":
      return `$${String(node.number ?? "?")}`;
    case "RowExpr":
      return renderNode(node.args ?? [], depth);
    default:
      return "…";
  }
}

/** The expression as short text (at most 80 characters), `…` for what it cannot render. */
export function renderExpression(node: unknown): string {
  const text = renderNode(node, 0).replace(/\s+/g, " ").trim();
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
