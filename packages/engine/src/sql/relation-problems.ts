import type { RelationFacts } from "./catalog-facts";
import type { FunctionPolicy, OwnerFacts, QualifiedName, RoutineFacts, TypeFacts } from "./function-policy";

/** Problems reported per relation at most; the rest are counted. */
const MAX_PROBLEMS_PER_RELATION = 4;

const owned = (owner: OwnerFacts | undefined) => `(owner ${owner?.name ?? "unknown"})`;
const routineName = (routine: RoutineFacts) => `${routine.schema}.${routine.name}() ${owned(routine.owner)}`;

/**
 * Why reading a value of `type` may run a refused function: each of its routines judged by
 * `FunctionPolicy.implicitRefusal` (chosen by the type's owner, or the owner of the part that brings it), one line
 * each, opening with `subject` (e.g. `column amt has`). Pure.
 */
export function typeValueProblems(policy: FunctionPolicy, type: TypeFacts, subject: string): string[] {
  const problems: string[] = [];
  for (const routine of type.routines) {
    const reason = policy.implicitRefusal(routine, { chosenBy: routine.chosenBy, kind: routine.kind ?? "expression" });
    if (reason === undefined) continue;
    problems.push(
      `${subject} type ${type.schema}.${type.name} ${owned(type.owner)}, whose ${routine.via ?? "input function"} runs ${routineName(routine)}, which ${reason}`,
    );
  }
  return problems;
}

/** The problems of one relation, following the relations it reads (each once). */
function walk(policy: FunctionPolicy, relation: RelationFacts, trail: string, seen: Set<number>, into: string[]): void {
  if (seen.has(relation.oid)) return;
  seen.add(relation.oid);
  const subject = `${trail}${relation.kind} ${relation.schema}.${relation.name} ${owned(relation.owner)}`;
  for (const edge of relation.edges) {
    if (edge.kind === "routine") {
      const reason = policy.implicitRefusal(edge.routine, { chosenBy: relation.owner, kind: "expression" });
      if (reason !== undefined)
        into.push(`${subject}: ${edge.via} calls ${routineName(edge.routine)}, which ${reason}`);
    } else if (edge.kind === "type") {
      const type = policy.typeById(edge.typeOid);
      if (type !== undefined) into.push(...typeValueProblems(policy, type, `${subject}: ${edge.via} has`));
    } else {
      const read = policy.relationById(edge.relationOid);
      if (read !== undefined) walk(policy, read, `${subject}, in ${edge.via}, reads `, seen, into);
    }
  }
}

/** Caps a relation's problems at `MAX_PROBLEMS_PER_RELATION`, counting the rest. */
function capped(problems: readonly string[]): string[] {
  const unique = [...new Set(problems)];
  if (unique.length <= MAX_PROBLEMS_PER_RELATION) return unique;
  const shown = unique.slice(0, MAX_PROBLEMS_PER_RELATION);
  return [...shown, `and ${unique.length - shown.length} more such functions`];
}

/**
 * Why reading `reference` (every candidate relation its name can resolve to on the search path, or the qualified
 * one) may run code the policy refuses: what its view body and row-level security policies call, what the types of
 * its columns bring along (casts, input/output functions, domain CHECKs), recursively through the relations its body
 * and policies read, each judged by `FunctionPolicy.implicitRefusal`. Each line names the relation, its owner, what
 * brings the function along, the function and its owner. Empty when reading it runs nothing refused. Pure.
 */
export function relationProblems(policy: FunctionPolicy, reference: QualifiedName): string[] {
  return policy.relations(reference).flatMap((relation) => {
    const problems: string[] = [];
    walk(policy, relation, "", new Set(), problems);
    return capped(problems);
  });
}
