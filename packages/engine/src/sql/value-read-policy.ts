import type { ReadOnlyQuery } from "../database/read-only-session";
import type { FunctionPolicy } from "./function-policy";
import { sharedFunctionPolicyCache } from "./function-policy-cache";
import { relationProblems } from "./relation-problems";

/**
 * The policy nlq's own reads of data values judge relations by (sample values, value lookups and probes, the value
 * index, exact row counts): `policy` when the caller has the question's, else the session's own through
 * `sharedFunctionPolicyCache` without `NLQ_ALLOWED_FUNCTIONS` or `NLQ_TRUSTED_OWNERS` — the strictest, so a reader
 * that is not handed one can only skip more. Run inside `runReadOnly` on the session that reads.
 */
export async function valueReadPolicy(query: ReadOnlyQuery, policy?: FunctionPolicy): Promise<FunctionPolicy> {
  return policy ?? (await sharedFunctionPolicyCache.load(query));
}

/**
 * True when nlq may read values of `relation` on the session: reading it runs nothing `policy` refuses — no view body
 * or row-level security policy calling code another role chose, no column whose type's cast or output function would
 * (`relationProblems`; the reads cast each value to text). Pure.
 */
export function mayReadValues(
  policy: FunctionPolicy,
  relation: { readonly schema: string; readonly table: string },
): boolean {
  return relationProblems(policy, { schema: relation.schema, name: relation.table }).length === 0;
}
