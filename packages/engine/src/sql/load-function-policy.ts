import type { ReadOnlyQuery } from "../database/read-only-session";
import { createFunctionPolicy, type FunctionPolicy, type OperatorFacts } from "./function-policy";
import { loadRelationFacts } from "./load-relation-facts";
import { loadTypeFacts } from "./load-type-facts";
import { ownerOf, routineOf, routineSql, searchPathLiteral, stringLiteral } from "./policy-catalog-sql";

/**
 * Functions with their volatility, extension, owner, language, whether an unqualified name can reach them and
 * whether one positional argument can call them (column notation).
 */
function functionsSql(searchPath: string): string {
  const routine = routineSql("p", "", searchPath);
  return `
SELECT ${routine.columns},
       p.pronargs - p.pronargdefaults <= 1 AND (p.pronargs >= 1 OR p.provariadic <> 0)
         AND p.proargtypes[0] IS DISTINCT FROM 'pg_catalog.internal'::regtype
FROM pg_catalog.pg_proc p
${routine.joins}`;
}

/** Operators with their owner and the function behind each. */
function operatorsSql(searchPath: string): string {
  const routine = routineSql("p", "p", searchPath);
  return `
SELECT n.nspname, o.oprname, n.nspname = ANY (${searchPath}), oo.rolname, oo.rolsuper, ${routine.columns},
       CASE WHEN o.oprleft <> 0 THEN format_type(o.oprleft, NULL) END, format_type(o.oprright, NULL)
FROM pg_catalog.pg_operator o
JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace
LEFT JOIN pg_catalog.pg_roles oo ON oo.oid = o.oprowner
JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode
${routine.joins}`;
}

/**
 * Loads the function policy for one question from the target database, under the asking role and its search path
 * (run it inside `runReadOnly`): every function of `pg_proc` and every operator of `pg_operator` with the function
 * behind it, the types whose coercion or values run refusable functions (`load-type-facts.ts`), the relations whose
 * reading does (`load-relation-facts.ts`), the asking role, then `createFunctionPolicy` with `allowedFunctions`
 * (`NLQ_ALLOWED_FUNCTIONS`) and `trustedOwners` (`NLQ_TRUSTED_OWNERS`). The catalog queries run with
 * `search_path = pg_catalog, pg_temp` (transaction-local, set back afterwards), so no operator or function on the asking
 * role's search path answers them; the session's own search path (`current_schemas(true)`, read first) decides what
 * its names resolve to.
 */
export async function loadFunctionPolicy(
  query: ReadOnlyQuery,
  allowedFunctions: readonly string[] = [],
  trustedOwners: readonly string[] = [],
): Promise<FunctionPolicy> {
  // The catalog queries are estimated dear on large catalogs; compiling them (JIT) took seconds where running them
  // takes milliseconds. Transaction-local: the read-only scope's rollback restores the session's setting.
  await query("SET LOCAL jit = off");
  const session = (
    await query(
      "SELECT pg_catalog.current_schemas(true)::pg_catalog.text, CURRENT_USER, pg_catalog.current_setting('search_path')",
    )
  ).rows[0];
  const searchPath = searchPathLiteral(session?.[0] ?? "{}");
  await query("SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)");
  try {
    const functions = (await query(functionsSql(searchPath))).rows.map((row) => ({
      ...routineOf(row, 0),
      acceptsOneArgument: row[9] !== "f",
    }));
    const operators: OperatorFacts[] = (await query(operatorsSql(searchPath))).rows.map((row) => {
      const owner = ownerOf(row[3], row[4]);
      return {
        schema: row[0] ?? "",
        name: row[1] ?? "",
        onSearchPath: row[2] === "t",
        ...(owner === undefined ? {} : { owner }),
        implementation: routineOf(row, 5),
        ...(row[14] === null ? {} : { leftType: row[14] }),
        ...(row[15] === null ? {} : { rightType: row[15] }),
      };
    });
    const types = await loadTypeFacts(query, searchPath);
    const relations = await loadRelationFacts(
      query,
      searchPath,
      types.flatMap((type) => (type.oid === undefined ? [] : [type.oid])),
    );
    return createFunctionPolicy({
      functions,
      operators,
      types,
      relations,
      allowedFunctions,
      trustedOwners,
      asker: session?.[1] ?? "",
    });
  } finally {
    await query(`SELECT pg_catalog.set_config('search_path', ${stringLiteral(session?.[2] ?? "")}, true)`);
  }
}
