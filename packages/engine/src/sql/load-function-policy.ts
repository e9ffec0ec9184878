import type { ReadOnlyQuery } from "../database/read-only-session";
import {
  createFunctionPolicy,
  type FunctionPolicy,
  type OperatorFacts,
  type RoutineFacts,
  type TypeFacts,
} from "./function-policy";

/**
 * Functions with their volatility, extension, whether an unqualified name can reach them and whether one positional
 * argument can call them (column notation).
 */
const functionsSql = `
SELECT n.nspname, p.proname, p.provolatile, e.extname, n.nspname = ANY (pg_catalog.current_schemas(true)),
       p.pronargs - p.pronargdefaults <= 1 AND (p.pronargs >= 1 OR p.provariadic <> 0)
         AND p.proargtypes[0] IS DISTINCT FROM 'pg_catalog.internal'::pg_catalog.regtype
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend d
  ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid AND d.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid`;

/**
 * Types whose coercion runs a function outside pg_catalog or a volatile one, with each such function: the input
 * function, functions of casts into the type, functions and operators its domain CHECK constraints depend on, and
 * the same through a domain's base type, an array's element type, a composite type's attribute types (`'(1)'::t`,
 * `ROW(1)::t`, `json_populate_record(NULL::t, …)` coerce each field) and a range's subtype.
 */
const typesSql = `
WITH RECURSIVE implied(type, proc) AS (
  SELECT t.oid, t.typinput::oid FROM pg_catalog.pg_type t
  UNION ALL SELECT c.casttarget, c.castfunc FROM pg_catalog.pg_cast c WHERE c.castfunc <> 0
  UNION ALL
  SELECT k.contypid, CASE WHEN d.refclassid = 'pg_catalog.pg_operator'::pg_catalog.regclass
                          THEN (SELECT o.oprcode::oid FROM pg_catalog.pg_operator o WHERE o.oid = d.refobjid)
                          ELSE d.refobjid END
  FROM pg_catalog.pg_constraint k
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_constraint'::pg_catalog.regclass AND d.objid = k.oid
   AND d.refclassid IN ('pg_catalog.pg_proc'::pg_catalog.regclass, 'pg_catalog.pg_operator'::pg_catalog.regclass)
  WHERE k.contypid <> 0
), risky AS (
  SELECT i.type, i.proc FROM implied i JOIN pg_catalog.pg_proc p ON p.oid = i.proc
  WHERE p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace OR p.provolatile = 'v'
), parent(type, part) AS (
  SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type t WHERE t.typtype = 'd'
  UNION ALL SELECT t.oid, t.typelem FROM pg_catalog.pg_type t WHERE t.typelem <> 0 AND t.typlen = -1
  UNION ALL
  SELECT t.oid, a.atttypid FROM pg_catalog.pg_type t
  JOIN pg_catalog.pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped
  WHERE t.typrelid <> 0
  UNION ALL SELECT g.rngtypid, g.rngsubtype FROM pg_catalog.pg_range g
  UNION ALL SELECT g.rngmultitypid, g.rngsubtype FROM pg_catalog.pg_range g
), reach(type, proc) AS (
  SELECT type, proc FROM risky
  UNION
  SELECT p.type, r.proc FROM reach r JOIN parent p ON p.part = r.type
)
SELECT DISTINCT tn.nspname, t.typname, tn.nspname = ANY (pg_catalog.current_schemas(true)),
       n.nspname, p.proname, p.provolatile, e.extname, n.nspname = ANY (pg_catalog.current_schemas(true))
FROM reach r
JOIN pg_catalog.pg_type t ON t.oid = r.type
JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
JOIN pg_catalog.pg_proc p ON p.oid = r.proc
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend x
  ON x.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND x.objid = p.oid AND x.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = x.refobjid`;

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

function typeFacts(rows: ReadonlyArray<ReadonlyArray<string | null>>): TypeFacts[] {
  const types = new Map<string, { schema: string; name: string; onSearchPath: boolean; routines: RoutineFacts[] }>();
  for (const row of rows) {
    const key = `${row[0]}.${row[1]}`;
    let type = types.get(key);
    if (type === undefined) {
      type = { schema: row[0] ?? "", name: row[1] ?? "", onSearchPath: row[2] === "t", routines: [] };
      types.set(key, type);
    }
    type.routines.push(routine(row, 3));
  }
  return [...types.values()];
}

/**
 * Loads the function policy for one question from the target database, under the asking role and its search path
 * (run it inside `runReadOnly`, once per question): every function of `pg_proc` and every operator of `pg_operator`
 * with the function behind it, the types whose coercion runs refusable functions (`typesSql`), then `createFunctionPolicy` with `allowedFunctions` (`NLQ_ALLOWED_FUNCTIONS`).
 */
export async function loadFunctionPolicy(
  query: ReadOnlyQuery,
  allowedFunctions: readonly string[] = [],
): Promise<FunctionPolicy> {
  // The catalog queries are estimated dear on large catalogs; compiling them (JIT) took seconds where running them
  // takes milliseconds. Transaction-local: the read-only scope's rollback restores the session's setting.
  await query("SET LOCAL jit = off");
  const functions = (await query(functionsSql)).rows.map((row) => ({
    ...routine(row, 0),
    acceptsOneArgument: row[5] !== "f",
  }));
  const operators: OperatorFacts[] = (await query(operatorsSql)).rows.map((row) => ({
    schema: row[0] ?? "",
    name: row[1] ?? "",
    onSearchPath: row[2] === "t",
    implementation: routine(row, 3),
  }));
  const types = typeFacts((await query(typesSql)).rows);
  return createFunctionPolicy({ functions, operators, types, allowedFunctions });
}
