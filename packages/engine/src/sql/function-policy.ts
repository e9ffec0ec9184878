import type { OperatorFacts, QualifiedName, RelationFacts, RoutineFacts, TypeFacts } from "./catalog-facts";
import { functionRefusal, type ImplicitCall, implicitCallRefusal, type OwnerTrust } from "./function-refusal";

export type {
  ImplicitCallKind,
  OperatorFacts,
  OwnerFacts,
  QualifiedName,
  RelationEdge,
  RelationFacts,
  RoutineFacts,
  TypeFacts,
  TypeRoutine,
} from "./catalog-facts";

/**
 * Which functions and operators generated SQL may call, and what the relations and types it reads bring along,
 * decided from catalog facts (pure; `loadFunctionPolicy` reads the facts from the target database under the asking
 * role). Nothing here is a name denylist on its own: volatility, ownership and who chose the code decide, and the named
 * categories of `function-refusal.ts` refuse what stays dangerous whatever its volatility.
 */

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
