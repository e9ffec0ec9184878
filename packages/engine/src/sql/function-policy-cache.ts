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
 * type runs, updates the table's pg_class row), pg_rewrite (a view's body), pg_policy, pg_aggregate, pg_language,
 * pg_depend (every dependency: a view's, a policy's, an extension's members, a column's type — a column that gets a
 * type created after initdb gains a row) and the roles (name and superuser flag: who is trusted). Every name is
 * schema-qualified.
 */
export const policyFingerprintSql = `SELECT pg_catalog.concat_ws('|',
  ${catalogState("pg_proc")}, ${catalogState("pg_operator")}, ${catalogState("pg_type")}, ${catalogState("pg_cast")},
  ${catalogState("pg_constraint")}, ${catalogState("pg_namespace")}, ${catalogState("pg_extension")},
  ${catalogState("pg_range")}, ${catalogState("pg_class")}, ${catalogState("pg_rewrite")}, ${catalogState("pg_policy")},
  ${catalogState("pg_aggregate")}, ${catalogState("pg_language")}, ${catalogState("pg_depend")},
  (SELECT pg_catalog.concat(pg_catalog.count(*), ':', pg_catalog.sum(pg_catalog.hashtext(pg_catalog.concat(oid, rolname, rolsuper))::pg_catalog.int8))
     FROM pg_catalog.pg_roles),
  pg_catalog.current_schemas(true)::pg_catalog.text, CURRENT_USER, pg_catalog.current_database(),
  pg_catalog.inet_server_addr(), pg_catalog.inet_server_port(), pg_catalog.pg_postmaster_start_time())`;

/** Loads policies through a cache; see `createFunctionPolicyCache`. */
export interface FunctionPolicyCache {
  /**
   * The policy for the session `query` runs on (inside `runReadOnly`), from the cache when its fingerprint holds;
   * `allowedFunctions` (`NLQ_ALLOWED_FUNCTIONS`) and `trustedOwners` (`NLQ_TRUSTED_OWNERS`) default to none.
   */
  load(
    query: ReadOnlyQuery,
    allowedFunctions?: readonly string[],
    trustedOwners?: readonly string[],
  ): Promise<FunctionPolicy>;
  /** Policies held now. */
  readonly size: number;
  clear(): void;
}

/**
 * A cache of function policies keyed by `policyFingerprintSql` (server, database, role, search path and catalog
 * state), `allowedFunctions` and `trustedOwners`: each question runs the fingerprint (one row) instead of reading all of pg_proc,
 * pg_operator and the types; a `CREATE`/`ALTER`/`DROP` of a function, operator, type, cast, domain constraint,
 * schema or extension, a restart, another role or another search path changes the fingerprint and the policy is
 * read again. At most `maxEntries` policies are kept (least recently used dropped first). Default 32.
 */
export function createFunctionPolicyCache(maxEntries = 32): FunctionPolicyCache {
  const entries = new Map<string, FunctionPolicy>();
  return {
    async load(query, allowedFunctions = [], trustedOwners = []) {
      const fingerprint = (await query(policyFingerprintSql)).rows[0]?.[0];
      if (fingerprint === null || fingerprint === undefined) {
        return loadFunctionPolicy(query, allowedFunctions, trustedOwners);
      }
      const key = JSON.stringify([fingerprint, [...allowedFunctions].sort(), [...trustedOwners].sort()]);
      const cached = entries.get(key);
      if (cached !== undefined) {
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const policy = await loadFunctionPolicy(query, allowedFunctions, trustedOwners);
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
