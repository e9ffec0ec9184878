import type { ImplicitCallKind, OwnerFacts, RoutineFacts } from "./catalog-facts";

/**
 * Whether one function may run, by what it is (pure): the named dangerous categories, volatility, the schema, the
 * extension it belongs to and `NLQ_ALLOWED_FUNCTIONS` (`functionRefusal`); and, for a function PostgreSQL runs
 * because a relation or type the statement reads brings it along rather than because the statement names it, who
 * chose it (`implicitCallRefusal`, docs/decisions/2026-12-01-what-postgresql-executes.md).
 */

/** Volatile functions of `pg_catalog` that only read clocks or random state: harmless in a read-only query. */
export const harmlessVolatileFunctions: ReadonlySet<string> = new Set([
  "random",
  "random_normal",
  "clock_timestamp",
  "timeofday",
  "gen_random_uuid",
  "uuidv4",
  "uuidv7",
]);

/**
 * Extensions whose immutable and stable functions are pure data functions (string similarity, text search helpers,
 * data types). Their volatile functions are still refused.
 */
export const safeExtensions: ReadonlySet<string> = new Set([
  "pg_trgm",
  "fuzzystrmatch",
  "unaccent",
  "citext",
  "hstore",
  "ltree",
  "cube",
  "earthdistance",
  "intarray",
  "isn",
  "seg",
  "btree_gin",
  "btree_gist",
  "vector",
]);

/** Functions refused whatever their volatility or schema, by what they do. First match names the reason. */
const dangerousFunctions: ReadonlyArray<readonly [RegExp, string]> = [
  [/^((query|cursor|table|schema|database)_to_xml.*|ts_stat|ts_rewrite|crosstab\d*|connectby)$/, "executes SQL text"],
  [/^(dblink.*|postgres_fdw_.*)$/, "opens database connections"],
  [
    /^(pg_read_file|pg_read_binary_file|pg_ls_.*|pg_stat_file|pg_file_.*|pg_logdir_ls|lo_.*)$/,
    "touches server files or large objects",
  ],
  [
    /^(pg_cancel_backend|pg_terminate_backend|pg_reload_conf|pg_rotate_logfile|pg_promote|pg_log_backend_memory_contexts)$/,
    "signals server processes",
  ],
  [/^pg_(try_)?advisory_.*$/, "takes or releases advisory locks"],
  [
    /^(pg_(create|drop|copy)_.*replication_slot|pg_replication_slot_advance|pg_replication_origin_.*|pg_logical_emit_message|pg_(start|stop)_backup|pg_backup_(start|stop)|pg_switch_wal|pg_create_restore_point|pg_stat_reset.*|pg_wal_replay_(pause|resume))$/,
    "changes replication, backup or statistics state",
  ],
  [/^set_config$/, "sets configuration"],
  [
    /^(pg_input_is_valid|pg_input_error_info|domain_in|record_in|array_in|(any|anycompatible)?(multi)?range_in|multirange_in)$/,
    "runs the input function of a type named at run time",
  ],
  [/^(nextval|setval|setseed)$/, "changes sequence or random state"],
  [/^pg_notify$/, "sends notifications"],
];

const systemSchemas: ReadonlySet<string> = new Set(["pg_catalog", "information_schema"]);

/** The dangerous categories as one PostgreSQL regular expression over a lower-case function name (same rules). */
export const dangerousFunctionPattern: string = dangerousFunctions.map(([pattern]) => pattern.source).join("|");

/** Why `routine` is refused whoever owns it and whatever brings it along (a dangerous category), or undefined. */
export function dangerousFunctionRefusal(routine: RoutineFacts): string | undefined {
  const name = routine.name.toLowerCase();
  for (const [pattern, reason] of dangerousFunctions) if (pattern.test(name)) return reason;
  return undefined;
}

/**
 * The decision for one function:
 * - refused whatever else when it executes SQL text, opens connections, touches files or large objects, signals
 *   backends, takes advisory locks, changes replication/backup/statistics state, sets configuration, runs the input
 *   function of a type named at run time (`pg_input_is_valid`, `domain_in`, `record_in`…: a domain's CHECK the
 *   cast check never saw), or changes
 *   sequence or random state (`dangerousFunctions`);
 * - in `pg_catalog`/`information_schema`: refused when volatile, unless in `harmlessVolatileFunctions`;
 * - elsewhere: only immutable or stable functions, and only of an extension in `safeExtensions` or named in
 *   `allowedFunctions` (`name` or `schema.name`, lower case).
 */
export function functionRefusal(routine: RoutineFacts, allowedFunctions: ReadonlySet<string>): string | undefined {
  const dangerous = dangerousFunctionRefusal(routine);
  if (dangerous !== undefined) return dangerous;
  const name = routine.name.toLowerCase();
  if (systemSchemas.has(routine.schema)) {
    return routine.volatility === "v" && !harmlessVolatileFunctions.has(name) ? "is volatile" : undefined;
  }
  if (routine.volatility === "v") return "is volatile";
  if (routine.extension !== null && safeExtensions.has(routine.extension)) return undefined;
  if (allowedFunctions.has(name) || allowedFunctions.has(`${routine.schema.toLowerCase()}.${name}`)) return undefined;
  return routine.extension === null
    ? "is a user-defined function not named in NLQ_ALLOWED_FUNCTIONS"
    : `belongs to extension ${routine.extension}, which is not on nlq's safe list (NLQ_ALLOWED_FUNCTIONS can allow it)`;
}

/**
 * Who the asking session trusts: the asking role itself (`asker`, `current_user`), superusers (they can do anything
 * the asker can already) and `trustedOwners` (`NLQ_TRUSTED_OWNERS`, role names). An unknown owner is not trusted.
 */
export interface OwnerTrust {
  readonly asker: string;
  readonly trustedOwners: ReadonlySet<string>;
}

/** True when `owner` is trusted under `trust` (see `OwnerTrust`). */
export function isTrustedOwner(owner: OwnerFacts | undefined, trust: OwnerTrust): boolean {
  if (owner === undefined) return false;
  return owner.superuser || owner.name === trust.asker || trust.trustedOwners.has(owner.name);
}

/** How a function is reached without the statement naming it. */
export interface ImplicitCall {
  /** The owner of the object that brings the function along: the view or table (bodies, policies), the type (casts, checks). */
  readonly chosenBy: OwnerFacts | undefined;
  /** `io`: a type's input or output function; `cast`: a cast's function; `expression`: a view body, policy or CHECK. */
  readonly kind: ImplicitCallKind;
}

/**
 * Why a function PostgreSQL runs implicitly (a view's body, a row-level security policy, a column type's cast or
 * input/output function, a domain's CHECK) is refused, or undefined when it may run:
 * 1. a dangerous category (`dangerousFunctionRefusal`) is refused whoever owns or chose it;
 * 2. a function `functionRefusal` allows may run, as if the statement had called it;
 * 3. otherwise it may run only when its code is trusted — its owner is trusted, or it is written in a language only a
 *    superuser can use (C, internal, an untrusted PL) — and so is the choice to run it: the object bringing it along
 *    is owned by a trusted role, or it is a type's input/output or cast function written in such a language (only a
 *    superuser can write a function for a type that way).
 * Code another role chose therefore runs only when the function policy would let the statement call it by name.
 */
export function implicitCallRefusal(
  routine: RoutineFacts,
  call: ImplicitCall,
  allowedFunctions: ReadonlySet<string>,
  trust: OwnerTrust,
): string | undefined {
  const dangerous = dangerousFunctionRefusal(routine);
  if (dangerous !== undefined) return dangerous;
  const refusal = functionRefusal(routine, allowedFunctions);
  if (refusal === undefined) return undefined;
  const superuserCode = routine.untrustedLanguage === true;
  const codeTrusted = superuserCode || isTrustedOwner(routine.owner, trust);
  const choiceTrusted = isTrustedOwner(call.chosenBy, trust) || (call.kind !== "expression" && superuserCode);
  return codeTrusted && choiceTrusted ? undefined : refusal;
}
