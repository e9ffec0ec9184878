import { and, eq, or } from "drizzle-orm";
import type { KnowledgeEditor } from "./knowledge-store-types";
import { type KnowledgeSnapshot, knowledgeEntries } from "./schema/knowledge";

/**
 * Who sees and who changes which entries (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 1), as
 * the conditions `KnowledgeStore`'s queries use: a role sees its own and the shared entries, an administrator changes
 * the shared ones too, suggestions are seen by their proposer and by administrators.
 */

/** The entries of `role` and those shared with every role. */
export function visibleToRole(role: string) {
  return or(eq(knowledgeEntries.author, role), eq(knowledgeEntries.sharedWithAllRoles, true));
}

/** Active entries of `viewer` or shared, and suggestions it made (every suggestion for an administrator). */
export function seenBy(viewer: KnowledgeEditor) {
  return or(
    and(eq(knowledgeEntries.status, "active"), visibleToRole(viewer.role)),
    and(
      eq(knowledgeEntries.status, "suggested"),
      viewer.administrator ? undefined : eq(knowledgeEntries.author, viewer.role),
    ),
  );
}

export function snapshotSeenBy(snapshot: KnowledgeSnapshot, viewer: KnowledgeEditor): boolean {
  if (snapshot.status === "suggested") return viewer.administrator || snapshot.author === viewer.role;
  return snapshot.author === viewer.role || snapshot.sharedWithAllRoles;
}

/** An editor's own entries as it writes them now: shared ones for an administrator, private ones otherwise. */
export function ownedBy(editor: KnowledgeEditor) {
  return and(eq(knowledgeEntries.author, editor.role), eq(knowledgeEntries.sharedWithAllRoles, editor.administrator));
}

/**
 * The active entries `editor` may change: its own private ones; an administrator also every shared one. A role that
 * is no longer an administrator cannot change what it once shared.
 */
export function changeableBy(editor: KnowledgeEditor) {
  const own = and(eq(knowledgeEntries.author, editor.role), eq(knowledgeEntries.sharedWithAllRoles, false));
  return and(
    eq(knowledgeEntries.status, "active"),
    editor.administrator ? or(own, eq(knowledgeEntries.sharedWithAllRoles, true)) : own,
  );
}
