import type { QualifiedName } from "./function-policy";

/** A function or operator the statement calls, as written. */
export interface RoutineReference extends QualifiedName {
  readonly kind: "function" | "operator";
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

/**
 * Every function call (`FuncCall`, schema-qualified or not) and operator (`A_Expr`, `ANY`/`ALL` sublinks,
 * `ORDER BY … USING`) in a raw parse tree (libpg-query JSON).
 */
export function routineReferences(tree: unknown): RoutineReference[] {
  const found: RoutineReference[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [type, value] of Object.entries(node)) {
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        const fields = value as Record<string, unknown>;
        if (type === "FuncCall") {
          const reference = qualified(fields.funcname as NameList);
          if (reference !== undefined) found.push({ kind: "function", ...reference });
        } else if (type === "A_Expr") {
          found.push(...operatorReferences(fields.name as NameList));
        } else if (type === "SubLink") {
          found.push(...operatorReferences(fields.operName as NameList));
        } else if (type === "SortBy") {
          found.push(...operatorReferences(fields.useOp as NameList));
        }
      }
      visit(value);
    }
  };
  visit(tree);
  return found;
}
