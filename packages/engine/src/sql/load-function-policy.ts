import type { ReadOnlyQuery } from "../database/read-only-session";
import { createFunctionPolicy, type FunctionPolicy, type OperatorFacts, type RoutineFacts } from "./function-policy";

/** Functions with their volatility, extension and whether an unqualified name can reach them. */
const functionsSql = `
SELECT n.nspname, p.proname, p.provolatile, e.extname, n.nspname = ANY (pg_catalog.current_schemas(true))
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend d
  ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid AND d.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid`;

/** Operators with the function behind each. */
const operatorsSql = `
SELECT n.nspname, o.oprname, n.nspname = ANY (pg_catalog.current_schemas(true)),
       pn.nspname, p.proname, p.provolatile, e.extname, pn.nspname = ANY (pg_catalog.current_schemas(true))
FROM pg_catalog.pg_operator o
JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace
JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode
JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend d
  ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid AND d.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid`;

function routine(row: ReadonlyArray<string | null>, offset: number): RoutineFacts {
  return {
    schema: row[offset] ?? "",
    name: row[offset + 1] ?? "",
    volatility: (row[offset + 2] ?? "v") as RoutineFacts["volatility"],
    extension: row[offset + 3] ?? null,
    onSearchPath: row[offset + 4] === "t",
  };
}

/**
 * Loads the function policy for one question from the target database, under the asking role and its search path
 * (run it inside `runReadOnly`, once per question): every function of `pg_proc` and every operator of `pg_operator`
 * with the function behind it, then `createFunctionPolicy` with `allowedFunctions` (`NLQ_ALLOWED_FUNCTIONS`).
 */
export async function loadFunctionPolicy(
  query: ReadOnlyQuery,
  allowedFunctions: readonly string[] = [],
): Promise<FunctionPolicy> {
  const functions = (await query(functionsSql)).rows.map((row) => routine(row, 0));
  const operators: OperatorFacts[] = (await query(operatorsSql)).rows.map((row) => ({
    schema: row[0] ?? "",
    name: row[1] ?? "",
    onSearchPath: row[2] === "t",
    implementation: routine(row, 3),
  }));
  return createFunctionPolicy({ functions, operators, allowedFunctions });
}
