/**
 * Which functions and operators generated SQL may call, decided from `pg_proc` facts (pure; `loadFunctionPolicy`
 * reads the facts from the target database under the asking role). Nothing here is a name denylist on its own:
 * volatility and ownership decide, and the named categories below refuse what stays dangerous whatever its volatility.
 */

/** One function as `pg_proc` describes it. */
export interface RoutineFacts {
  readonly schema: string;
  readonly name: string;
  /** `pg_proc.provolatile`: immutable, stable or volatile. */
  readonly volatility: "i" | "s" | "v";
  /** The extension the function belongs to (`pg_depend` deptype `e`), or null. */
  readonly extension: string | null;
  /** True when its schema is in `current_schemas(true)`, so an unqualified name can resolve to it. */
  readonly onSearchPath: boolean;
  /**
   * True when one positional argument can call it (`(x).f` and `t.f` are `f(x)` and `f(t)`): at most one argument
   * without a default, at least one argument or variadic, and not taking `internal`. Unknown (undefined) counts as
   * true.
   */
  readonly acceptsOneArgument?: boolean;
}

/**
 * A type and the functions PostgreSQL runs when a value is coerced to it (`x::t`, `CAST`, `t 'literal'`, `t(x)`,
 * `(x).t`): its input function, the functions of casts into it, the functions and operators its domain `CHECK`
 * constraints call, and the same for the domain's base types and an array's element type. Only types with at least
 * one routine outside `pg_catalog` or volatile are listed (the others can never be refused).
 */
export interface TypeFacts {
  readonly schema: string;
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly routines: readonly RoutineFacts[];
}

/** One operator and the function that implements it (`pg_operator.oprcode`). */
export interface OperatorFacts {
  readonly schema: string;
  /** The operator symbol, e.g. `=` or `%`. */
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly implementation: RoutineFacts;
}

/** The facts and settings `validateSql` decides with. */
export interface FunctionPolicy {
  /** Candidates of a function name, lower case: `name` or `schema.name`. */
  functions(reference: QualifiedName): readonly RoutineFacts[];
  /** Candidates of an operator symbol (optionally schema-qualified). */
  operators(reference: QualifiedName): readonly OperatorFacts[];
  /** Candidates of a type name (optionally schema-qualified) that run functions when a value is coerced to them. */
  types(reference: QualifiedName): readonly TypeFacts[];
  /** Why `routine` is refused, or undefined when it may run. */
  refusal(routine: RoutineFacts): string | undefined;
}

/** A possibly schema-qualified name as the parse tree gives it. */
export interface QualifiedName {
  readonly schema?: string;
  readonly name: string;
}

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

function key(reference: QualifiedName): string {
  return reference.schema === undefined ? reference.name : `${reference.schema}.${reference.name}`;
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
  const name = routine.name.toLowerCase();
  for (const [pattern, reason] of dangerousFunctions) if (pattern.test(name)) return reason;
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

export interface FunctionPolicyFacts {
  readonly functions: readonly RoutineFacts[];
  readonly operators: readonly OperatorFacts[];
  /** Types whose coercion runs functions outside `pg_catalog` or volatile ones. Default none. */
  readonly types?: readonly TypeFacts[];
  /** `NLQ_ALLOWED_FUNCTIONS`: `name` or `schema.name` entries. Default none. */
  readonly allowedFunctions?: readonly string[];
}

/** Builds the policy from facts: unqualified names resolve to candidates on the search path, qualified to their schema. */
export function createFunctionPolicy(facts: FunctionPolicyFacts): FunctionPolicy {
  const functions = new Map<string, RoutineFacts[]>();
  const operators = new Map<string, OperatorFacts[]>();
  const types = new Map<string, TypeFacts[]>();
  const add = <T>(map: Map<string, T[]>, name: string, value: T) => {
    const list = map.get(name);
    if (list === undefined) map.set(name, [value]);
    else list.push(value);
  };
  for (const routine of facts.functions) {
    add(functions, key({ schema: routine.schema, name: routine.name }), routine);
    if (routine.onSearchPath) add(functions, routine.name, routine);
  }
  for (const operator of facts.operators) {
    add(operators, key({ schema: operator.schema, name: operator.name }), operator);
    if (operator.onSearchPath) add(operators, operator.name, operator);
  }
  for (const type of facts.types ?? []) {
    add(types, key({ schema: type.schema, name: type.name }), type);
    if (type.onSearchPath) add(types, type.name, type);
  }
  const allowed = new Set((facts.allowedFunctions ?? []).map((entry) => entry.trim().toLowerCase()));
  return {
    functions: (reference) => functions.get(key(reference)) ?? [],
    operators: (reference) => operators.get(key(reference)) ?? [],
    types: (reference) => types.get(key(reference)) ?? [],
    refusal: (routine) => functionRefusal(routine, allowed),
  };
}
