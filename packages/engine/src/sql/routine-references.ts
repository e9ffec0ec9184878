import type { QualifiedName } from "./function-policy";
import { forEachParseNode } from "./parse-tree-nodes";

/**
 * Something the statement may call, as written:
 * - `function`: a function call (`FuncCall`);
 * - `operator`: an operator, written (`A_Expr`, `ANY`/`ALL` sublinks, `ORDER BY … USING`) or implied by
 *   `CASE x WHEN …` (PostgreSQL compares with `=`);
 * - `column-notation`: a name in field-selection or column notation (`(x).f`, `t.f`, `t.c.f`), which PostgreSQL
 *   resolves as `f(x)` when `f` is not a column or field, or as the cast `x::f` when `f` names a type;
 * - `type`: the target of a cast (`x::t`, `CAST(x AS t)`, `t 'literal'`, a one-argument `t(x)`), which runs the
 *   type's input function, the cast's function and a domain's `CHECK` functions; JSON builders (`to_json`,
 *   `json_agg`, `JSON_OBJECT(…)`, …) count as casts to json and jsonb, since they use a type's cast to json.
 */
export interface RoutineReference extends QualifiedName {
  readonly kind: "function" | "operator" | "column-notation" | "type";
}

type NameList = Array<{ String?: { sval?: string } }> | undefined;

function qualified(names: NameList): QualifiedName | undefined {
  const parts = (names ?? []).map((part) => part.String?.sval ?? "");
  const name = parts.at(-1);
  if (name === undefined || name === "") return undefined;
  return parts.length >= 2 ? { schema: parts.at(-2)!, name } : { name };
}

/** Keyword-named expressions (`BETWEEN`, …) and the comparison operators PostgreSQL expands them to. */
const keywordOperators: Readonly<Record<string, readonly string[]>> = {
  BETWEEN: [">=", "<="],
  "NOT BETWEEN": ["<", ">"],
  "BETWEEN SYMMETRIC": [">=", "<="],
  "NOT BETWEEN SYMMETRIC": ["<", ">"],
};

function operatorReferences(names: NameList): RoutineReference[] {
  const reference = qualified(names);
  if (reference === undefined) return [];
  const expanded = keywordOperators[reference.name.toUpperCase()];
  if (expanded !== undefined) return expanded.map((name) => ({ kind: "operator", name }));
  if (/^[A-Za-z_ ]+$/.test(reference.name)) return [];
  return [{ kind: "operator", ...reference }];
}

/** The `String` names of a field list (`ColumnRef.fields` after the first, `A_Indirection.indirection`). */
function fieldNames(fields: unknown): RoutineReference[] {
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((field: { String?: { sval?: string } }) => {
    const name = field?.String?.sval;
    return name === undefined || name === "" ? [] : [{ kind: "column-notation" as const, name }];
  });
}

function typeReference(typeName: unknown): RoutineReference[] {
  const reference = qualified((typeName as { names?: NameList } | undefined)?.names);
  return reference === undefined ? [] : [{ kind: "type", ...reference }];
}

/**
 * Functions that turn values of user-defined scalar types into JSON through the type's cast to json (jsonb)
 * (`datum_to_json`, `datum_to_jsonb`): calling them may run that cast's function, as a cast to json would.
 */
const jsonBuilders =
  /^(to_jsonb?|array_to_json|row_to_json|jsonb?_agg(_strict)?|jsonb?_object_agg(_unique)?(_strict)?|jsonb?_build_(object|array))$/;

/** SQL/JSON constructors (`JSON_OBJECT(…)`, `JSON_ARRAYAGG(…)`, `JSON_SCALAR(…)`), which build JSON the same way. */
const jsonConstructorNodes = new Set([
  "JsonObjectConstructor",
  "JsonArrayConstructor",
  "JsonArrayQueryConstructor",
  "JsonObjectAgg",
  "JsonArrayAgg",
  "JsonScalarExpr",
]);

const jsonCasts: readonly RoutineReference[] = [
  { kind: "type", schema: "pg_catalog", name: "json" },
  { kind: "type", schema: "pg_catalog", name: "jsonb" },
];

function funcCallReferences(fields: Record<string, unknown>): RoutineReference[] {
  const reference = qualified(fields.funcname as NameList);
  if (reference === undefined) return [];
  const found: RoutineReference[] = [{ kind: "function", ...reference }];
  if (jsonBuilders.test(reference.name)) found.push(...jsonCasts);
  // `t(x)` with one argument is a cast to type `t` when no function `t` takes it (func_get_detail's coercion case).
  if (Array.isArray(fields.args) && fields.args.length === 1 && fields.agg_star !== true) {
    found.push({ kind: "type", ...reference });
  }
  return found;
}

/**
 * Every function, operator, column-notation name and cast target in a raw parse tree (libpg-query JSON), as
 * written; `validateSql` checks each against every candidate PostgreSQL could resolve it to.
 */
export function routineReferences(tree: unknown): RoutineReference[] {
  const found: RoutineReference[] = [];
  forEachParseNode(tree, (type, value) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const fields = value as Record<string, unknown>;
      if (type === "FuncCall") found.push(...funcCallReferences(fields));
      else if (type === "A_Expr") found.push(...operatorReferences(fields.name as NameList));
      else if (type === "SubLink") found.push(...operatorReferences(fields.operName as NameList));
      else if (type === "SortBy") found.push(...operatorReferences(fields.useOp as NameList));
      else if (type === "CaseExpr" && fields.arg !== undefined) found.push({ kind: "operator", name: "=" });
      else if (type === "ColumnRef" && Array.isArray(fields.fields)) found.push(...fieldNames(fields.fields.slice(1)));
      else if (type === "A_Indirection") found.push(...fieldNames(fields.indirection));
      else if (type === "typeName" || type === "TypeName") found.push(...typeReference(fields));
      else if (jsonConstructorNodes.has(type)) found.push(...jsonCasts);
    }
  });
  return found;
}

const temporarySchema = /^pg_temp(_\d+)?$/i;

/**
 * Every mention of the session's temporary schema (`pg_temp`, `pg_temp_N`) as a name part or a relation's schema:
 * functions, operators and types there are the session's own code, which no policy has seen.
 */
export function temporarySchemaReferences(tree: unknown): string[] {
  const found: string[] = [];
  forEachParseNode(tree, (key, value) => {
    if (key === "String" && value !== null && typeof value === "object") {
      const name = (value as { sval?: unknown }).sval;
      if (typeof name === "string" && temporarySchema.test(name)) found.push(name);
    } else if (key === "schemaname" && typeof value === "string" && temporarySchema.test(value)) {
      found.push(value);
    }
  });
  return found;
}

/**
 * Every relation the statement names in a FROM list, a JOIN, `TABLE x` or a subquery (`RangeVar`), as written.
 * A name that is also a CTE's counts too (over-approximation: a CTE named like a relation never hides it).
 */
export function relationReferences(tree: unknown): QualifiedName[] {
  const found: QualifiedName[] = [];
  forEachParseNode(tree, (key, value) => {
    if (key === "RangeVar" && value !== null && typeof value === "object") {
      const { schemaname, relname } = value as { schemaname?: unknown; relname?: unknown };
      if (typeof relname === "string" && relname !== "") {
        found.push(
          typeof schemaname === "string" && schemaname !== ""
            ? { schema: schemaname, name: relname }
            : { name: relname },
        );
      }
    }
  });
  return found;
}
