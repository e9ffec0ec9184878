import { functionRefusal, type ImplicitCall, implicitCallRefusal, type OwnerTrust } from "./function-refusal";
import type { RelationFacts } from "./relation-facts";

/**
 * Which functions and operators generated SQL may call, and what the relations and types it reads bring along,
 * decided from catalog facts (pure; `loadFunctionPolicy` reads the facts from the target database under the asking
 * role). Nothing here is a name denylist on its own: volatility, ownership and who chose the code decide, and the named
 * categories of `function-refusal.ts` refuse what stays dangerous whatever its volatility.
 */

/** A role that owns a catalog object. */
export interface OwnerFacts {
  readonly name: string;
  /** `pg_roles.rolsuper`. */
  readonly superuser: boolean;
}

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
  /** Its owner (`proowner`); unknown counts as untrusted. */
  readonly owner?: OwnerFacts;
  /** True when written in a language only a superuser can use (`lanpltrusted` false: C, internal, plpython3u…). */
  readonly untrustedLanguage?: boolean;
  /**
   * Type OIDs of its result and arguments, for functions outside `pg_catalog`: a value of such a type may bring a
   * cast or input/output function along (`TypeFacts.oid`). Default none.
   */
  readonly signatureTypes?: readonly number[];
}

/** A function a type brings along, with what brings it (for messages and `implicitCallRefusal`). */
export interface TypeRoutine extends RoutineFacts {
  /** What runs it, e.g. `cast from att.money2 to text`, `CHECK constraint positive of domain att.amount`. */
  readonly via?: string;
  /** `io` (input, output, receive, send), `cast` or `expression` (a domain's CHECK). Default `expression`. */
  readonly kind?: ImplicitCall["kind"];
  /** Owner of the type that brings it (for a part — a domain's base, an attribute — that part's type). */
  readonly chosenBy?: OwnerFacts;
}

/**
 * A type and the functions PostgreSQL may run for a value of it or a value coerced to it (`x::t`, `CAST`,
 * `t 'literal'`, `t(x)`, `(x).t`, a column of it): its input and output functions, the functions of casts into and
 * out of it (a cast belongs to the types created after initdb among its two, to both when neither was), the functions
 * and operators its domain `CHECK` constraints call, and the same for the domain's base types, an array's element
 * type, a composite type's attributes and a range's subtype. Only types with at least one routine outside
 * `pg_catalog`, volatile, or in a dangerous category (CHECKs and casts) are listed.
 */
export interface TypeFacts {
  readonly schema: string;
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly routines: readonly TypeRoutine[];
  /** `pg_type.oid`, for relation columns and function signatures (`FunctionPolicy.typeById`). */
  readonly oid?: number;
  readonly owner?: OwnerFacts;
}

/** One operator and the function that implements it (`pg_operator.oprcode`). */
export interface OperatorFacts {
  readonly schema: string;
  /** The operator symbol, e.g. `=` or `%`. */
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly implementation: RoutineFacts;
  /** Its owner (`oprowner`). */
  readonly owner?: OwnerFacts;
  /** Its left operand's type (`format_type`); absent for a prefix operator or when unknown. */
  readonly leftType?: string;
  /** Its right operand's type (`format_type`). */
  readonly rightType?: string;
}

/** The facts and settings `validateSql` decides with. */
export interface FunctionPolicy {
  /** Candidates of a function name, lower case: `name` or `schema.name`. */
  functions(reference: QualifiedName): readonly RoutineFacts[];
  /** Candidates of an operator symbol (optionally schema-qualified). */
  operators(reference: QualifiedName): readonly OperatorFacts[];
  /** Candidates of a type name (optionally schema-qualified) that run functions when a value is coerced to them. */
  types(reference: QualifiedName): readonly TypeFacts[];
  /** A listed type by OID (undefined: nothing it brings along can be refused). */
  typeById(oid: number): TypeFacts | undefined;
  /** Candidates of a relation name that bring along functions that may be refused (`RelationFacts`). */
  relations(reference: QualifiedName): readonly RelationFacts[];
  /** A listed relation by OID. */
  relationById(oid: number): RelationFacts | undefined;
  /** Why `routine` is refused when the statement calls it, or undefined when it may run. */
  refusal(routine: RoutineFacts): string | undefined;
  /** Why `routine` is refused when PostgreSQL runs it because something read brings it along (`implicitCallRefusal`). */
  implicitRefusal(routine: RoutineFacts, call: ImplicitCall): string | undefined;
}

/** A possibly schema-qualified name as the parse tree gives it. */
export interface QualifiedName {
  readonly schema?: string;
  readonly name: string;
}

function key(reference: QualifiedName): string {
  return reference.schema === undefined ? reference.name : `${reference.schema}.${reference.name}`;
}

export interface FunctionPolicyFacts {
  readonly functions: readonly RoutineFacts[];
  readonly operators: readonly OperatorFacts[];
  /** Types whose coercion or values run functions that may be refused. Default none. */
  readonly types?: readonly TypeFacts[];
  /** Relations whose reading runs functions that may be refused (`RelationFacts`). Default none. */
  readonly relations?: readonly RelationFacts[];
  /** `NLQ_ALLOWED_FUNCTIONS`: `name` or `schema.name` entries. Default none. */
  readonly allowedFunctions?: readonly string[];
  /** The asking role (`current_user`), trusted for what it owns. Default none (only superusers are trusted). */
  readonly asker?: string;
  /** `NLQ_TRUSTED_OWNERS`: roles whose objects are trusted like the asker's own. Default none. */
  readonly trustedOwners?: readonly string[];
}

/**
 * Builds the policy from facts: unqualified names resolve to candidates on the search path, qualified to their schema.
 */
export function createFunctionPolicy(facts: FunctionPolicyFacts): FunctionPolicy {
  const functions = new Map<string, RoutineFacts[]>();
  const operators = new Map<string, OperatorFacts[]>();
  const types = new Map<string, TypeFacts[]>();
  const relations = new Map<string, RelationFacts[]>();
  const add = <T>(map: Map<string, T[]>, name: string, value: T) => {
    const list = map.get(name);
    if (list === undefined) map.set(name, [value]);
    else list.push(value);
  };
  const named = <T extends { schema: string; name: string; onSearchPath: boolean }>(
    map: Map<string, T[]>,
    values: readonly T[],
  ) => {
    for (const value of values) {
      add(map, key({ schema: value.schema, name: value.name }), value);
      if (value.onSearchPath) add(map, value.name, value);
    }
  };
  named(functions, facts.functions);
  named(operators, facts.operators);
  named(types, facts.types ?? []);
  named(relations, facts.relations ?? []);
  const typesById = new Map((facts.types ?? []).flatMap((type) => (type.oid === undefined ? [] : [[type.oid, type]])));
  const relationsById = new Map((facts.relations ?? []).map((relation) => [relation.oid, relation]));
  const allowed = new Set((facts.allowedFunctions ?? []).map((entry) => entry.trim().toLowerCase()));
  const trust: OwnerTrust = {
    asker: facts.asker ?? "",
    trustedOwners: new Set((facts.trustedOwners ?? []).map((entry) => entry.trim()).filter((entry) => entry !== "")),
  };
  return {
    functions: (reference) => functions.get(key(reference)) ?? [],
    operators: (reference) => operators.get(key(reference)) ?? [],
    types: (reference) => types.get(key(reference)) ?? [],
    typeById: (oid) => typesById.get(oid),
    relations: (reference) => relations.get(key(reference)) ?? [],
    relationById: (oid) => relationsById.get(oid),
    refusal: (routine) => functionRefusal(routine, allowed),
    implicitRefusal: (routine, call) => implicitCallRefusal(routine, call, allowed, trust),
  };
}
