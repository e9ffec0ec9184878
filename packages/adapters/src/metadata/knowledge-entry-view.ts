import type { ConfirmedReading, KnowledgeEntry, KnowledgeKind, KnowledgeOrigin } from "@nlq/engine";
import type { KnowledgeEntryRow } from "./schema/knowledge";

/** A stored entry as the engine receives it (`AnswerQuestionOptions.knowledge`): no author, no status. */
export function knowledgeEntryOf(row: KnowledgeEntryRow): KnowledgeEntry {
  return {
    id: row.id,
    kind: row.kind as KnowledgeKind,
    name: row.name,
    text: row.text,
    ...(row.sql ? { sql: row.sql } : {}),
    references: row.references,
    ...(row.reading ? { reading: row.reading } : {}),
    origin: row.origin as KnowledgeOrigin,
    sharedWithAllRoles: row.sharedWithAllRoles,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One entry as a role's screen shows it (web page, `nlq knowledge list`, MCP): whose it is, never another role's name. */
export interface KnowledgeEntryView {
  readonly id: string;
  readonly kind: KnowledgeKind;
  readonly name: string;
  readonly text: string;
  readonly sql?: string;
  readonly references: readonly string[];
  readonly reading?: ConfirmedReading;
  readonly origin: KnowledgeOrigin;
  /** How a confirmed reading was made ("picked from 3 readings by alice"): shown to its author only. */
  readonly provenance?: string;
  /** True when the viewing role wrote it (or proposed the suggestion). */
  readonly yours: boolean;
  /** True when an administrator shared it with every role. */
  readonly shared: boolean;
  /** True for a suggestion waiting for an administrator. */
  readonly suggested: boolean;
  readonly updatedAt: string;
}

/** What a screen shows `role` of an entry: no other role's name. */
export function knowledgeEntryView(row: KnowledgeEntryRow, role: string): KnowledgeEntryView {
  const { sharedWithAllRoles, updatedAt, ...entry } = knowledgeEntryOf(row);
  return {
    ...entry,
    ...(row.provenance && row.author === role ? { provenance: row.provenance } : {}),
    yours: row.author === role || (row.status === "suggested" && row.suggestedBy === role),
    shared: sharedWithAllRoles,
    suggested: row.status === "suggested",
    updatedAt,
  };
}
