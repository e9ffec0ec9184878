import type { ReadOnlyQuery } from "../database/read-only-session";
import type { RelationEdge, RelationFacts } from "./catalog-facts";
import { dangerousFunctionPattern } from "./function-refusal";
import {
  expressionFunctionPattern,
  FIRST_NORMAL_OBJECT_ID,
  oidArrayLiteral,
  ownerOf,
  routineOf,
  routineSql,
  stringLiteral,
} from "./policy-catalog-sql";

const relationKinds: Readonly<Record<string, string>> = {
  r: "table",
  p: "partitioned table",
  v: "view",
  m: "materialized view",
  f: "foreign table",
};

/**
 * Relations whose reading may run a function that can be refused, with the edges that lead there. What reading a
 * relation brings along (`expression`, `edge`):
 * - a view's `ON SELECT` rule (views created after initdb; a materialized view's rule runs only on refresh) and each
 *   `SELECT`/`ALL` row-level security policy of a table with RLS enabled: the functions its stored expression calls
 *   (found in the expression text, PostgreSQL's own pinned functions included), the functions, operators (their
 *   functions), types and relations it depends on (`pg_depend`), and an aggregate's support functions;
 * - the type of every column (`riskyTypes`: the types `typesSql` lists).
 * A relation is listed when one of its edges reaches a function outside pg_catalog, a volatile one, or one in a
 * dangerous category, or a listed type, or (recursively) a listed relation; only such edges are returned.
 */
export function relationsSql(searchPath: string, riskyTypes: readonly number[]): string {
  const routine = routineSql("p", "p", searchPath, true);
  const types = oidArrayLiteral(riskyTypes);
  return `
WITH RECURSIVE expression(rel, via, tree, class, object) AS (
  SELECT r.ev_class, 'its view body', r.ev_action, 'pg_catalog.pg_rewrite'::regclass, r.oid
  FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c ON c.oid = r.ev_class
  WHERE r.ev_type = '1' AND c.relkind = 'v' AND r.oid >= ${FIRST_NORMAL_OBJECT_ID}::oid
  UNION ALL
  SELECT y.polrelid, format('its row-level security policy %I', y.polname), y.polqual, 'pg_catalog.pg_policy'::regclass, y.oid
  FROM pg_catalog.pg_policy y JOIN pg_catalog.pg_class c ON c.oid = y.polrelid
  WHERE c.relrowsecurity AND y.polcmd IN ('r', '*')
), dependency(rel, via, refclass, target) AS (
  SELECT x.rel, x.via, d.refclassid, d.refobjid FROM expression x
  JOIN pg_catalog.pg_depend d ON d.classid = x.class AND d.objid = x.object
), called(rel, via, target) AS (
  SELECT x.rel, x.via, m.found[1]::oid FROM expression x
  CROSS JOIN LATERAL regexp_matches(x.tree::text, ${stringLiteral(expressionFunctionPattern)}, 'g') AS m(found)
  UNION SELECT rel, via, target FROM dependency WHERE refclass = 'pg_catalog.pg_proc'::regclass
  UNION
  SELECT y.rel, y.via, o.oprcode::oid FROM dependency y JOIN pg_catalog.pg_operator o ON o.oid = y.target
  WHERE y.refclass = 'pg_catalog.pg_operator'::regclass
), routine_edge(rel, via, target) AS (
  SELECT rel, via, target FROM called
  UNION
  SELECT c.rel, c.via, s.support FROM called c JOIN pg_catalog.pg_aggregate a ON a.aggfnoid = c.target
  CROSS JOIN LATERAL (VALUES (a.aggtransfn::oid), (a.aggfinalfn::oid), (a.aggcombinefn::oid), (a.aggserialfn::oid),
                             (a.aggdeserialfn::oid), (a.aggmtransfn::oid), (a.aggminvtransfn::oid), (a.aggmfinalfn::oid))
    AS s(support)
  WHERE s.support <> 0
), direct(rel, via, kind, target) AS (
  SELECT e.rel, e.via, 'routine', e.target FROM routine_edge e JOIN pg_catalog.pg_proc p ON p.oid = e.target
  -- A CASE over both sides, so the regular expression runs for the functions called only (see typesSql).
  WHERE CASE WHEN p.pronamespace <> 'pg_catalog'::regnamespace OR p.provolatile = 'v' THEN true
             ELSE e.target IS NOT NULL AND lower(p.proname) ~ ${stringLiteral(dangerousFunctionPattern)} END
  UNION
  SELECT rel, via, 'type', target FROM dependency WHERE refclass = 'pg_catalog.pg_type'::regclass AND target = ANY (${types})
  UNION
  SELECT a.attrelid, format('column %I', a.attname), 'type', a.atttypid
  FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  WHERE a.attnum > 0 AND NOT a.attisdropped AND a.atttypid = ANY (${types})
), relation_edge(rel, via, target) AS (
  SELECT DISTINCT rel, via, target FROM dependency
  WHERE refclass = 'pg_catalog.pg_class'::regclass AND target <> rel
), risky(rel) AS (
  SELECT rel FROM direct
  UNION
  SELECT e.rel FROM relation_edge e JOIN risky r ON r.rel = e.target
), edge(rel, via, kind, target) AS (
  SELECT rel, via, kind, target FROM direct
  UNION
  SELECT e.rel, e.via, 'relation', e.target FROM relation_edge e WHERE e.target IN (SELECT rel FROM risky)
)
SELECT c.oid, cn.nspname, c.relname, c.relkind, cn.nspname = ANY (${searchPath}), cown.rolname, cown.rolsuper,
       e.via, e.kind, e.target, ${routine.columns}
FROM edge e
JOIN pg_catalog.pg_class c ON c.oid = e.rel
JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_roles cown ON cown.oid = c.relowner
LEFT JOIN pg_catalog.pg_proc p ON e.kind = 'routine' AND p.oid = e.target
${routine.joins}
ORDER BY c.oid, e.kind, e.via, e.target`;
}

/** Groups `relationsSql` rows by relation. */
export function relationFactsOf(rows: ReadonlyArray<ReadonlyArray<string | null>>): RelationFacts[] {
  const relations = new Map<number, RelationFacts & { edges: RelationEdge[] }>();
  for (const row of rows) {
    const oid = Number(row[0]);
    let relation = relations.get(oid);
    if (relation === undefined) {
      const owner = ownerOf(row[5], row[6]);
      relation = {
        oid,
        schema: row[1] ?? "",
        name: row[2] ?? "",
        kind: relationKinds[row[3] ?? ""] ?? "relation",
        onSearchPath: row[4] === "t",
        ...(owner === undefined ? {} : { owner }),
        edges: [],
      };
      relations.set(oid, relation);
    }
    const via = row[7] ?? "";
    const target = Number(row[9]);
    if (row[8] === "routine") relation.edges.push({ kind: "routine", via, routine: routineOf(row, 10) });
    else if (row[8] === "type") relation.edges.push({ kind: "type", via, typeOid: target });
    else relation.edges.push({ kind: "relation", via, relationOid: target });
  }
  return [...relations.values()];
}

/** Loads `relationsSql` on the session (see `loadFunctionPolicy` for the scope it needs). */
export async function loadRelationFacts(
  query: ReadOnlyQuery,
  searchPath: string,
  riskyTypes: readonly number[],
): Promise<RelationFacts[]> {
  return relationFactsOf((await query(relationsSql(searchPath, riskyTypes))).rows);
}
