import type { OwnerFacts, RoutineFacts } from "./catalog-facts";

/**
 * SQL fragments and row readers the policy loaders share. The loaders run with `search_path = pg_catalog, pg_temp`
 * (set transaction-locally by `loadFunctionPolicy`, so no operator or function of the asking role's search path can
 * answer them); the asking session's own search path is passed in as a literal (`searchPathLiteral`).
 */

/** OIDs below this were made by initdb (`FirstNormalObjectId`): PostgreSQL's own objects. */
export const FIRST_NORMAL_OBJECT_ID = 16384;

/** A string literal read the same under any `standard_conforming_strings`. */
export function stringLiteral(text: string): string {
  return `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** The asking session's `current_schemas(true)` (its text form, e.g. `{pg_catalog,public}`) as a `name[]` literal. */
export function searchPathLiteral(currentSchemas: string): string {
  return `${stringLiteral(currentSchemas)}::pg_catalog.name[]`;
}

/** An `oid[]` literal. */
export function oidArrayLiteral(oids: readonly number[]): string {
  return `'{${oids.map((oid) => Math.floor(oid)).join(",")}}'::pg_catalog.oid[]`;
}

/**
 * The nine columns describing the function `p` (aliases prefixed with `prefix`) and the joins they need: schema, name,
 * volatility, extension, on the search path, owner, owner is superuser, written in an untrusted language, and — for
 * functions outside pg_catalog — the OIDs of its result and argument types. `outer`: every join is a LEFT JOIN (for
 * rows where `p` may be missing).
 */
export function routineSql(
  proc: string,
  prefix: string,
  searchPath: string,
  outer = false,
): { readonly columns: string; readonly joins: string } {
  const [namespace, language, owner, member, extension] = ["n", "l", "o", "d", "e"].map((alias) => `${prefix}${alias}`);
  const join = outer ? "LEFT JOIN" : "JOIN";
  return {
    columns: `${namespace}.nspname, ${proc}.proname, ${proc}.provolatile, ${extension}.extname,
       ${namespace}.nspname = ANY (${searchPath}), ${owner}.rolname, ${owner}.rolsuper, NOT ${language}.lanpltrusted,
       CASE WHEN ${proc}.pronamespace <> 'pg_catalog'::regnamespace
            THEN concat_ws(' ', ${proc}.prorettype, array_to_string(COALESCE(${proc}.proallargtypes, ${proc}.proargtypes::oid[]), ' ')) END`,
    joins: `${join} pg_catalog.pg_namespace ${namespace} ON ${namespace}.oid = ${proc}.pronamespace
${join} pg_catalog.pg_language ${language} ON ${language}.oid = ${proc}.prolang
LEFT JOIN pg_catalog.pg_roles ${owner} ON ${owner}.oid = ${proc}.proowner
LEFT JOIN pg_catalog.pg_depend ${member}
  ON ${member}.classid = 'pg_catalog.pg_proc'::regclass AND ${member}.objid = ${proc}.oid AND ${member}.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension ${extension} ON ${extension}.oid = ${member}.refobjid`,
  };
}

/** An owner from a name cell and a `rolsuper` cell (`t`/`f`); undefined when the role is gone. */
export function ownerOf(name: string | null | undefined, superuser: string | null | undefined): OwnerFacts | undefined {
  return name === null || name === undefined ? undefined : { name, superuser: superuser === "t" };
}

/** The function described by the nine `routineSql` columns of `row` from `offset`. */
export function routineOf(row: ReadonlyArray<string | null>, offset: number): RoutineFacts {
  const owner = ownerOf(row[offset + 5], row[offset + 6]);
  const signature = row[offset + 8];
  return {
    schema: row[offset] ?? "",
    name: row[offset + 1] ?? "",
    volatility: (row[offset + 2] ?? "v") as RoutineFacts["volatility"],
    extension: row[offset + 3] ?? null,
    onSearchPath: row[offset + 4] === "t",
    ...(owner === undefined ? {} : { owner }),
    untrustedLanguage: row[offset + 7] === "t",
    ...(signature === null || signature === undefined
      ? {}
      : {
          signatureTypes: signature
            .split(" ")
            .filter((oid) => oid !== "")
            .map(Number),
        }),
  };
}

/**
 * Matches the function OIDs a stored expression (`pg_node_tree` as text: a view's rule, a policy, a CHECK) calls:
 * function calls, operators' functions, aggregates and window functions. PostgreSQL records no `pg_depend` row for
 * its own (pinned) functions, so a call of `pg_advisory_lock` in a view body is found only here. Constants are written
 * as bytes in that form, so no string in the expression can fake a match.
 */
export const expressionFunctionPattern = ":(?:funcid|opfuncid|aggfnoid|winfnoid|hashfuncid|negfuncid) (\\d+)";
