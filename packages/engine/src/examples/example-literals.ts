import { parseSync } from "libpg-query";

// Which data values an example's SQL carries, so they can be checked against the rows the asking role can see
// (docs/decisions/2026-11-27-scoped-verified-examples.md). A literal compared with a column for equality or by
// pattern is a data value the author saw: `email = 'janne@…'`, `status IN ('open', 'held')`, `name ILIKE '%berg%'`,
// `CASE status WHEN 'open' …`. Range bounds (`<`, `>=`, `BETWEEN`), LIMIT counts, function arguments and output labels
// are not probed. When a string literal is compared with something this cannot resolve to one table's column, the
// example is unverifiable and only its author is shown it.

/** A table as written in the example (schema only when qualified). */
export interface ExampleTable {
  readonly schema?: string;
  readonly name: string;
}

/** One value some visible row must hold for the example to reach a role. */
export interface LiteralProbe {
  readonly table: ExampleTable;
  readonly column: string;
  /** `lower(column)` / `upper(column)` as written in the example; none: the column itself. */
  readonly columnFunction?: "lower" | "upper";
  /** How a row must match: equal (typed), LIKE, ILIKE, or a POSIX regular expression (case-sensitive or not). */
  readonly match: "equal" | "like" | "ilike" | "regex" | "iregex";
  /** The literal's text: a string's content or a number as written. */
  readonly value: string;
  readonly kind: "string" | "number";
}

/** The probes of an example, or why it cannot be checked (then it reaches its author only). */
export type ExampleLiterals =
  | { readonly verifiable: true; readonly probes: readonly LiteralProbe[] }
  | { readonly verifiable: false; readonly reason: string };

type Node = Record<string, unknown>;
type Literal = { readonly value: string; readonly kind: "string" | "number" };
/** A FROM item: a table, or null for anything whose columns cannot be traced to one table (subquery, CTE, function). */
type Source = ExampleTable | null;
interface Scope {
  readonly byName: ReadonlyMap<string, Source>;
  readonly items: readonly Source[];
}
interface ColumnSide {
  readonly fields: readonly string[];
  readonly columnFunction?: "lower" | "upper";
}

const equalityOperators = new Set(["=", "<>", "!="]);
const patternOperators: Readonly<Record<string, LiteralProbe["match"]>> = {
  "~~": "like",
  "!~~": "like",
  "~~*": "ilike",
  "!~~*": "ilike",
  "~": "regex",
  "!~": "regex",
  "~*": "iregex",
  "!~*": "iregex",
};

class Unverifiable extends Error {}

/** The data literals of one SELECT and the columns they are compared with. Needs `loadSqlParser()`. Pure. */
export function exampleLiterals(sql: string): ExampleLiterals {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return { verifiable: false, reason: "the SQL does not parse" };
  }
  const cteNames = new Set<string>();
  collect(tree, (key, value) => {
    if (key === "CommonTableExpr" && typeof value.ctename === "string") cteNames.add(value.ctename);
  });
  const probes: LiteralProbe[] = [];
  try {
    walk(tree, [], cteNames, probes);
  } catch (error) {
    if (error instanceof Unverifiable) return { verifiable: false, reason: error.message };
    throw error;
  }
  return { verifiable: true, probes };
}

function collect(node: unknown, onNode: (key: string, value: Node) => void, skip?: string): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, onNode, skip);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key === skip) continue;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) onNode(key, value as Node);
    collect(value, onNode, skip);
  }
}

function walk(node: unknown, scopes: readonly Scope[], cteNames: ReadonlySet<string>, probes: LiteralProbe[]): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, scopes, cteNames, probes);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      walk(value, scopes, cteNames, probes);
      continue;
    }
    const fields = value as Node;
    let inner = scopes;
    if (key === "SelectStmt") inner = [...scopes, scopeOf(fields.fromClause, cteNames)];
    else if (key === "A_Expr") probes.push(...comparisonProbes(fields, scopes));
    else if (key === "CaseExpr") probes.push(...caseProbes(fields, scopes));
    else if (key === "FuncCall") checkFunctionCall(fields);
    walk(value, inner, cteNames, probes);
  }
}

function scopeOf(fromClause: unknown, cteNames: ReadonlySet<string>): Scope {
  const byName = new Map<string, Source>();
  const items: Source[] = [];
  const add = (name: string | undefined, source: Source) => {
    items.push(source);
    if (name !== undefined) byName.set(name, byName.has(name) ? null : source);
  };
  const visit = (item: unknown) => {
    const [type, value] = Object.entries((item ?? {}) as Node)[0] ?? [];
    const fields = (value ?? {}) as Node;
    const alias = ((fields.alias ?? {}) as Node).aliasname as string | undefined;
    if (type === "RangeVar" && typeof fields.relname === "string") {
      const schema = typeof fields.schemaname === "string" ? fields.schemaname : undefined;
      const isCte = schema === undefined && cteNames.has(fields.relname);
      add(alias ?? fields.relname, isCte ? null : { ...(schema ? { schema } : {}), name: fields.relname });
    } else if (type === "JoinExpr" && alias === undefined) {
      visit(fields.larg);
      visit(fields.rarg);
    } else {
      add(alias, null);
    }
  };
  for (const item of Array.isArray(fromClause) ? fromClause : []) visit(item);
  return { byName, items };
}

/** The table a column reference reads, searching the innermost scope first; throws when it cannot be told. */
function resolve(column: ColumnSide, scopes: readonly Scope[]): ExampleTable {
  const fields = column.fields;
  const name = fields.at(-1)!;
  if (fields.length === 1) {
    const innermost = scopes.at(-1);
    const only = innermost?.items.length === 1 ? innermost.items[0] : null;
    if (!only) throw new Unverifiable(`cannot tell which table's ${name} a literal is compared with`);
    return only;
  }
  const qualifier = fields.at(-2)!;
  for (let index = scopes.length - 1; index >= 0; index--) {
    const scope = scopes[index]!;
    if (!scope.byName.has(qualifier)) continue;
    const source = scope.byName.get(qualifier);
    if (!source) break;
    if (fields.length === 3 && source.schema !== undefined && source.schema !== fields[0]) break;
    return fields.length === 3 && source.schema === undefined ? { schema: fields[0]!, name: source.name } : source;
  }
  throw new Unverifiable(`cannot tell which table ${qualifier}.${name} belongs to`);
}

function stringOf(node: unknown): string | undefined {
  const value = (node as { String?: { sval?: unknown } } | undefined)?.String?.sval;
  return typeof value === "string" ? value : undefined;
}

/** A column reference, `column::type`, or `lower(column)` / `upper(column)`. */
function columnSide(node: unknown): ColumnSide | undefined {
  const entry = node as Node | undefined;
  if (!entry) return undefined;
  if (entry.ColumnRef) {
    const fields = ((entry.ColumnRef as Node).fields as unknown[] | undefined)?.map(stringOf) ?? [];
    if (fields.length === 0 || fields.some((field) => field === undefined)) return undefined;
    return { fields: fields as string[] };
  }
  if (entry.TypeCast) return columnSide((entry.TypeCast as Node).arg);
  if (entry.FuncCall) {
    const call = entry.FuncCall as Node;
    const names = ((call.funcname as unknown[] | undefined) ?? []).map(stringOf);
    const name = names.at(-1);
    const args = (call.args as unknown[] | undefined) ?? [];
    const schemaOk = names.length === 1 || (names.length === 2 && names[0] === "pg_catalog");
    if ((name === "lower" || name === "upper") && schemaOk && args.length === 1) {
      const inner = columnSide(args[0]);
      if (inner && inner.columnFunction === undefined) return { ...inner, columnFunction: name };
    }
  }
  return undefined;
}

/** The literal(s) of a constant, `constant::type`, `(a, b)` list or `ARRAY[a, b]`; undefined for anything else. */
function literalsOf(node: unknown): Literal[] | undefined {
  const entry = node as Node | undefined;
  if (!entry) return undefined;
  if (entry.A_Const) {
    const constant = entry.A_Const as Node;
    const text = (constant.sval as Node | undefined)?.sval;
    if (typeof text === "string") return [{ value: text, kind: "string" }];
    const integer = (constant.ival as Node | undefined)?.ival;
    if (constant.ival !== undefined)
      return [{ value: String(typeof integer === "number" ? integer : 0), kind: "number" }];
    const decimal = (constant.fval as Node | undefined)?.fval;
    if (typeof decimal === "string") return [{ value: decimal, kind: "number" }];
    return []; // NULL, booleans, bit strings: not data a row holds
  }
  if (entry.TypeCast) return literalsOf((entry.TypeCast as Node).arg);
  const items = entry.List
    ? ((entry.List as Node).items as unknown[] | undefined)
    : entry.A_ArrayExpr
      ? ((entry.A_ArrayExpr as Node).elements as unknown[] | undefined)
      : undefined;
  if (!items) return undefined;
  const literals: Literal[] = [];
  for (const item of items) {
    const found = literalsOf(item);
    if (!found) return undefined;
    literals.push(...found);
  }
  return literals;
}

function containsString(node: unknown): boolean {
  let found = false;
  collect(
    { root: node },
    (key, value) => {
      if (key === "A_Const" && typeof (value.sval as Node | undefined)?.sval === "string") found = true;
    },
    "SubLink",
  ); // a subquery's own comparisons are probed where they are
  return found;
}

function containsColumn(node: unknown): boolean {
  let found = false;
  collect(
    { root: node },
    (key) => {
      if (key === "ColumnRef") found = true;
    },
    "SubLink",
  );
  return found;
}

/** How an `A_Expr` compares: equal-like, a pattern kind, or not a comparison whose literals are data. */
function matchOf(expression: Node): LiteralProbe["match"] | undefined {
  const operator = stringOf(((expression.name as unknown[] | undefined) ?? []).at(-1)) ?? "";
  switch (expression.kind) {
    case "AEXPR_OP":
    case "AEXPR_OP_ANY":
    case "AEXPR_OP_ALL":
      if (equalityOperators.has(operator)) return "equal";
      return patternOperators[operator];
    case "AEXPR_IN":
    case "AEXPR_DISTINCT":
    case "AEXPR_NOT_DISTINCT":
    case "AEXPR_NULLIF":
      return "equal";
    case "AEXPR_LIKE":
    case "AEXPR_ILIKE":
      return patternOperators[operator];
    case "AEXPR_SIMILAR":
      return "regex"; // its pattern is wrapped in similar_to_escape(): never a plain literal, so unverifiable below
    default:
      return undefined;
  }
}

function probesOf(
  column: ColumnSide,
  literals: readonly Literal[],
  match: LiteralProbe["match"],
  scopes: readonly Scope[],
): LiteralProbe[] {
  if (literals.length === 0) return [];
  const table = resolve(column, scopes);
  const name = column.fields.at(-1)!;
  return literals.map((literal) => ({
    table,
    column: name,
    ...(column.columnFunction ? { columnFunction: column.columnFunction } : {}),
    match,
    value: literal.value,
    kind: literal.kind,
  }));
}

function compare(
  left: unknown,
  right: unknown,
  match: LiteralProbe["match"],
  scopes: readonly Scope[],
): LiteralProbe[] {
  for (const [columnNode, literalNode] of [
    [left, right],
    [right, left],
  ] as const) {
    const column = columnSide(columnNode);
    const literals = literalsOf(literalNode);
    if (column && literals) return probesOf(column, literals, match, scopes);
  }
  // Neither side is a plain column against plain literals: a string literal compared with an expression over columns
  // (`email || '' = 'x'`, `lower(trim(email)) = 'x'`) cannot be checked.
  const stringAgainstColumn =
    (containsString(right) && containsColumn(left)) || (containsString(left) && containsColumn(right));
  if (stringAgainstColumn) throw new Unverifiable("a literal is compared with an expression, not a column");
  return [];
}

function comparisonProbes(expression: Node, scopes: readonly Scope[]): LiteralProbe[] {
  const match = matchOf(expression);
  if (match === undefined) return [];
  return compare(expression.lexpr, expression.rexpr, match, scopes);
}

/**
 * Functions whose string arguments say how to compute or format, not which rows to find: `date_trunc('month', …)`,
 * `to_char(…, 'YYYY-MM')`, `coalesce(city, 'unknown')`, `concat_ws(' ', …)`.
 */
const formattingFunctions = new Set([
  "date_trunc",
  "date_part",
  "extract",
  "date_bin",
  "to_char",
  "to_date",
  "to_timestamp",
  "timezone",
  "coalesce",
  "concat",
  "concat_ws",
  "string_agg",
  "round",
  "trunc",
]);

/**
 * A string literal given to any other function together with a column (`strpos(email, 'janne') > 0`,
 * `position('janne' IN email)`, `split_part(email, '@', 2)`) searches rows by a value no probe can check.
 */
function checkFunctionCall(call: Node): void {
  const name = stringOf(((call.funcname as unknown[] | undefined) ?? []).at(-1)) ?? "";
  if (formattingFunctions.has(name)) return;
  const args = ((call.args as unknown[] | undefined) ?? []).map((arg) => {
    const entry = arg as Node;
    return entry.TypeCast ? (entry.TypeCast as Node).arg : arg;
  });
  const hasString = args.some((arg) => typeof ((arg as Node).A_Const as Node | undefined)?.sval === "object");
  if (hasString && args.some((arg) => containsColumn(arg))) {
    throw new Unverifiable(`a literal is passed to ${name}() with a column`);
  }
}

/** `CASE column WHEN 'a' THEN …`: each WHEN value is compared with the column for equality. */
function caseProbes(expression: Node, scopes: readonly Scope[]): LiteralProbe[] {
  if (expression.arg === undefined) return [];
  return ((expression.args as unknown[] | undefined) ?? []).flatMap((when) =>
    compare(expression.arg, ((when as Node).CaseWhen as Node | undefined)?.expr, "equal", scopes),
  );
}
