import type { ReadOnlyQuery } from "../database/read-only-session";
import type { ImplicitCallKind, TypeFacts, TypeRoutine } from "./catalog-facts";
import { dangerousFunctionPattern } from "./function-refusal";
import {
  expressionFunctionPattern,
  FIRST_NORMAL_OBJECT_ID,
  ownerOf,
  routineOf,
  routineSql,
  stringLiteral,
} from "./policy-catalog-sql";

/**
 * Types a value of which, or a coercion to which, may run a function that can be refused, with each such function and
 * what runs it: the input, output, receive and send functions; the functions of casts, each belonging to the side(s)
 * created after initdb (a cast between two of PostgreSQL's own types belongs to both: so `x::text` is not refused
 * because some role made a cast from its own type to text, yet a value of that type brings the cast along); the
 * functions and operators a domain `CHECK` calls (`pg_depend`, and PostgreSQL's own functions from the stored
 * expression); and the same through a domain's base type, an array's element type, a composite type's attributes
 * (`'(1)'::t`, `ROW(1)::t`, `json_populate_record(NULL::t, …)` coerce each field; reading a column of it outputs each)
 * and a range's subtype. A function may be refused when it lies outside pg_catalog, is volatile, or (casts and
 * CHECKs) belongs to a dangerous category.
 */
export function typesSql(searchPath: string): string {
  const routine = routineSql("p", "p", searchPath);
  const firstNormal = `${FIRST_NORMAL_OBJECT_ID}::oid`;
  return `
WITH RECURSIVE implied(type, proc, via, kind, chosen_by) AS (
  SELECT t.oid, t.typinput::oid, 'input function', 'io', t.oid FROM pg_catalog.pg_type t
  UNION ALL SELECT t.oid, t.typoutput::oid, 'output function', 'io', t.oid FROM pg_catalog.pg_type t
  UNION ALL SELECT t.oid, t.typreceive::oid, 'receive function', 'io', t.oid FROM pg_catalog.pg_type t WHERE t.typreceive <> 0
  UNION ALL SELECT t.oid, t.typsend::oid, 'send function', 'io', t.oid FROM pg_catalog.pg_type t WHERE t.typsend <> 0
  UNION ALL
  SELECT side.type, c.castfunc, format('cast from %s to %s', format_type(c.castsource, NULL), format_type(c.casttarget, NULL)),
         'cast', side.type
  FROM pg_catalog.pg_cast c CROSS JOIN LATERAL (VALUES (c.castsource), (c.casttarget)) AS side(type)
  WHERE c.castfunc <> 0 AND (side.type >= ${firstNormal} OR (c.castsource < ${firstNormal} AND c.casttarget < ${firstNormal}))
  UNION ALL
  SELECT k.contypid, CASE WHEN d.refclassid = 'pg_catalog.pg_operator'::regclass
                          THEN (SELECT o.oprcode::oid FROM pg_catalog.pg_operator o WHERE o.oid = d.refobjid)
                          ELSE d.refobjid END,
         format('CHECK constraint %I of domain %s', k.conname, format_type(k.contypid, NULL)), 'expression', k.contypid
  FROM pg_catalog.pg_constraint k
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_constraint'::regclass AND d.objid = k.oid
   AND d.refclassid IN ('pg_catalog.pg_proc'::regclass, 'pg_catalog.pg_operator'::regclass)
  WHERE k.contypid <> 0
  UNION ALL
  SELECT k.contypid, m.found[1]::oid, format('CHECK constraint %I of domain %s', k.conname, format_type(k.contypid, NULL)),
         'expression', k.contypid
  FROM pg_catalog.pg_constraint k
  CROSS JOIN LATERAL regexp_matches(k.conbin::text, ${stringLiteral(expressionFunctionPattern)}, 'g') AS m(found)
  WHERE k.contypid <> 0 AND k.oid >= ${firstNormal}
), risky AS (
  SELECT i.* FROM implied i JOIN pg_catalog.pg_proc p ON p.oid = i.proc
  -- One CASE over both sides: the name's regular expression runs only for the few cast and CHECK functions joined,
  -- never for every row of pg_proc (an OR would let the planner filter pg_proc by it first).
  WHERE CASE WHEN p.pronamespace <> 'pg_catalog'::regnamespace OR p.provolatile = 'v' THEN true
             WHEN i.kind = 'io' THEN false
             ELSE lower(p.proname) ~ ${stringLiteral(dangerousFunctionPattern)} END
), parent(type, part) AS (
  SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type t WHERE t.typtype = 'd'
  UNION ALL SELECT t.oid, t.typelem FROM pg_catalog.pg_type t WHERE t.typelem <> 0 AND t.typlen = -1
  UNION ALL
  SELECT t.oid, a.atttypid FROM pg_catalog.pg_type t
  JOIN pg_catalog.pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped
  WHERE t.typrelid <> 0
  UNION ALL SELECT g.rngtypid, g.rngsubtype FROM pg_catalog.pg_range g
  UNION ALL SELECT g.rngmultitypid, g.rngsubtype FROM pg_catalog.pg_range g
), reach(type, proc, via, kind, chosen_by) AS (
  SELECT type, proc, via, kind, chosen_by FROM risky
  UNION
  SELECT p.type, r.proc, r.via, r.kind, r.chosen_by FROM reach r JOIN parent p ON p.part = r.type
)
SELECT DISTINCT t.oid, tn.nspname, t.typname, tn.nspname = ANY (${searchPath}), town.rolname, town.rolsuper,
       ${routine.columns},
       r.via, r.kind, cown.rolname, cown.rolsuper
FROM reach r
JOIN pg_catalog.pg_type t ON t.oid = r.type
JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
LEFT JOIN pg_catalog.pg_roles town ON town.oid = t.typowner
JOIN pg_catalog.pg_type chosen ON chosen.oid = r.chosen_by
LEFT JOIN pg_catalog.pg_roles cown ON cown.oid = chosen.typowner
JOIN pg_catalog.pg_proc p ON p.oid = r.proc
${routine.joins}`;
}

/** Groups `typesSql` rows by type. */
export function typeFactsOf(rows: ReadonlyArray<ReadonlyArray<string | null>>): TypeFacts[] {
  const types = new Map<string, TypeFacts & { routines: TypeRoutine[] }>();
  for (const row of rows) {
    const oid = Number(row[0]);
    let type = types.get(String(oid));
    if (type === undefined) {
      const owner = ownerOf(row[4], row[5]);
      type = {
        oid,
        schema: row[1] ?? "",
        name: row[2] ?? "",
        onSearchPath: row[3] === "t",
        ...(owner === undefined ? {} : { owner }),
        routines: [],
      };
      types.set(String(oid), type);
    }
    const chosenBy = ownerOf(row[17], row[18]);
    type.routines.push({
      ...routineOf(row, 6),
      via: row[15] ?? "input function",
      kind: (row[16] ?? "expression") as ImplicitCallKind,
      ...(chosenBy === undefined ? {} : { chosenBy }),
    });
  }
  return [...types.values()];
}

/** Loads `typesSql` on the session (see `loadFunctionPolicy` for the scope it needs). */
export async function loadTypeFacts(query: ReadOnlyQuery, searchPath: string): Promise<TypeFacts[]> {
  return typeFactsOf((await query(typesSql(searchPath))).rows);
}
