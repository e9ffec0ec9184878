import type { ReadOnlyQuery } from "../database/read-only-session";
import type { FunctionPolicy } from "./function-policy";
import { loadFunctionPolicy } from "./load-function-policy";

/** `count:sum(xmin)` of a catalog: any insert, update or delete of a row changes it. */
const catalogState = (catalog: string, where = "") =>
  `(SELECT pg_catalog.concat(pg_catalog.count(*), ':', pg_catalog.sum(xmin::pg_catalog.text::pg_catalog.int8)) FROM pg_catalog.${catalog}${where})`;

/**
 * One row that changes whenever the policy could: the server (address, port, start time), the database, the asking
 * role and its resolved search path (`current_schemas(true)`, which also names the session's temporary schema), and
 * the state of every catalog the policy reads — pg_proc, pg_operator, pg_type, pg_cast, pg_constraint, pg_namespace,
 * pg_extension, pg_range, pg_class (a column added to or dropped from a table, which changes what a cast to its row
 * type runs, updates the table's pg_class row) and the extension memberships in pg_depend. Every name is
 * schema-qualified.
 */
export const policyFingerprintSql = `SELECT pg_catalog.concat_ws('|',
  ${catalogState("pg_proc")}, ${catalogState("pg_operator")}, ${catalogState("pg_type")}, ${catalogState("pg_cast")},
  ${catalogState("pg_constraint")}, ${catalogState("pg_namespace")}, ${catalogState("pg_extension")},
  ${catalogState("pg_range")}, ${catalogState("pg_class")},
  (SELECT pg_catalog.concat(pg_catalog.count(*), ':', pg_catalog.sum(objid::pg_catalog.int8), ':', pg_catalog.sum(refobjid::pg_catalog.int8))
     FROM pg_catalog.pg_depend WHERE deptype OPERATOR(pg_catalog.=) 'e'),
  pg_catalog.current_schemas(true)::pg_catalog.text, CURRENT_USER, pg_catalog.current_database(),
  pg_catalog.inet_server_addr(), pg_catalog.inet_server_port(), pg_catalog.pg_postmaster_start_time())`;

/** Loads policies through a cache; see `createFunctionPolicyCache`. */
export interface FunctionPolicyCache {
  /** The policy for the session `query` runs on (inside `runReadOnly`), from the cache when its fingerprint holds. */
  load(query: ReadOnlyQuery, allowedFunctions?: readonly string[]): Promise<FunctionPolicy>;
  /** Policies held now. */
  readonly size: number;
  clear(): void;
}

/**
 * A cache of function policies keyed by `policyFingerprintSql` (server, database, role, search path and catalog
 * state) and `allowedFunctions`: each question runs the fingerprint (one row) instead of reading all of pg_proc,
 * pg_operator and the types; a `CREATE`/`ALTER`/`DROP` of a function, operator, type, cast, domain constraint,
 * schema or extension, a restart, another role or another search path changes the fingerprint and the policy is
 * read again. At most `maxEntries` policies are kept (least recently used dropped first). Default 32.
 */
export function createFunctionPolicyCache(maxEntries = 32): FunctionPolicyCache {
  const entries = new Map<string, FunctionPolicy>();
  return {
    async load(query, allowedFunctions = []) {
      const fingerprint = (await query(policyFingerprintSql)).rows[0]?.[0];
      if (fingerprint === null || fingerprint === undefined) return loadFunctionPolicy(query, allowedFunctions);
      const key = JSON.stringify([fingerprint, [...allowedFunctions].sort()]);
      const cached = entries.get(key);
      if (cached !== undefined) {
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const policy = await loadFunctionPolicy(query, allowedFunctions);
      entries.set(key, policy);
      while (entries.size > Math.max(1, maxEntries)) entries.delete(entries.keys().next().value as string);
      return policy;
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}

/** The process-wide cache every question's policy goes through. */
export const sharedFunctionPolicyCache: FunctionPolicyCache = createFunctionPolicyCache();
