import type { KnowledgeUsed } from "../contract/knowledge";

/**
 * What an answer says it used, in one line (`nlq ask`, the proxy's NOTICE): `used 2 definitions: metric «net revenue»,
 * description «shop.orders.total_cents»`. Undefined when no entry reached the prompts.
 */
export function describeKnowledgeUsed(used: readonly KnowledgeUsed[] | undefined): string | undefined {
  if (!used || used.length === 0) return undefined;
  const entries = used.map((entry) => `${entry.kind} «${entry.name}»`).join(", ");
  return `used ${used.length} definition${used.length === 1 ? "" : "s"}: ${entries}`;
}
