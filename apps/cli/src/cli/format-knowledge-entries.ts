import type { KnowledgeChange, KnowledgeEntryView } from "@nlq/adapters";

/** A table or column comment (`COMMENT ON`) the role may read, as `nlq knowledge list` shows it beside the entries. */
export interface CommentDescription {
  /** `schema.table` or `schema.table.column`. */
  readonly element: string;
  readonly text: string;
}

function whose(entry: KnowledgeEntryView): string {
  if (entry.suggested) return entry.yours ? "your suggestion, waiting for an administrator" : "a suggestion";
  if (entry.shared) return entry.yours ? "yours, shared with every role" : "an administrator's, shared with every role";
  return "yours";
}

/**
 * `nlq knowledge list` as text: one block per entry (kind, name, whose it is, its origin and date; its text, SQL and
 * references; its id, for `remove` and `accept`), then the comments of what the role may read that no description
 * entry replaces.
 */
export function formatKnowledgeEntries(
  entries: readonly KnowledgeEntryView[],
  comments: readonly CommentDescription[] = [],
): string {
  if (entries.length === 0 && comments.length === 0) return "no knowledge entries\n";
  const lines: string[] = [];
  for (const entry of entries) {
    lines.push(`${entry.kind} «${entry.name}» (${whose(entry)}; ${entry.origin}; ${entry.updatedAt.slice(0, 10)})`);
    lines.push(`  ${entry.text}`);
    if (entry.sql) lines.push(`  sql: ${entry.sql}`);
    if (entry.references.length > 0) lines.push(`  references: ${entry.references.join(", ")}`);
    lines.push(`  id: ${entry.id}`);
  }
  for (const comment of comments) {
    lines.push(`description «${comment.element}» (COMMENT ON in the database, read live)`);
    lines.push(`  ${comment.text}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `nlq knowledge history` as text: one block per change, oldest first — when (UTC), what happened and who did it
 * (`you`, `another role`, or the role's name to an administrator), and the entry as it was after it (before it, for a
 * removal).
 */
export function formatKnowledgeHistory(id: string, history: readonly KnowledgeChange[]): string {
  const lines = [`history of ${id} (oldest first)`];
  for (const change of history) {
    const when = `${change.changedAt.slice(0, 19).replace("T", " ")} UTC`;
    lines.push(`${when}  ${change.action} by ${change.changedBy}`);
    lines.push(`  «${change.name}»: ${change.text}`);
    if (change.sql) lines.push(`  sql: ${change.sql}`);
    if (change.references.length > 0) lines.push(`  references: ${change.references.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}
