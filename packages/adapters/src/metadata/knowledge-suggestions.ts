import { loadSqlParser } from "@nlq/engine";
import { and, asc, eq, sql } from "drizzle-orm";
import { type KnowledgeEntryContent, normalizeKnowledgeContent } from "./knowledge-entry-input";
import { contentColumns, ownership, recordChange, sameKey, saveIn } from "./knowledge-entry-writes";
import { type KnowledgeEditor, type NewKnowledgeEntry, uuidPattern } from "./knowledge-store-types";
import type { MetadataDatabase } from "./metadata-database";
import { type KnowledgeEntryRow, knowledgeEntries } from "./schema/knowledge";

/**
 * Suggestions (MCP's `propose_knowledge`): kept as the proposer's, used by no prompt and shown to no other role until
 * an administrator accepts one (it then becomes the administrator's entry, shared with every role) or rejects it.
 * `KnowledgeStore`'s `suggest`, `suggestions`, `accept` and `reject`.
 */

/**
 * Proposes an entry for every role (the MCP `propose_knowledge` tool): kept as `role`'s suggestion, used by no prompt
 * and shown to no other role until an administrator accepts it.
 */
export async function suggestKnowledge(
  database: MetadataDatabase,
  entry: Omit<NewKnowledgeEntry, "origin">,
  role: string,
): Promise<KnowledgeEntryRow> {
  await loadSqlParser();
  const content = normalizeKnowledgeContent(entry);
  return database.transaction(async (transaction) => {
    const [row] = await transaction
      .insert(knowledgeEntries)
      .values({
        dataSource: entry.dataSource,
        ...contentColumns(content),
        origin: "suggestion",
        externalId: entry.externalId ?? null,
        provenance: entry.provenance ?? null,
        author: role,
        sharedWithAllRoles: false,
        status: "suggested",
        suggestedBy: role,
      })
      .returning();
    await recordChange(transaction, row!, "suggested", role);
    return row!;
  });
}

/** Suggestions waiting on the data source: every one for an administrator, a role's own otherwise; oldest first. */
export function knowledgeSuggestions(
  database: MetadataDatabase,
  dataSource: string,
  viewer: KnowledgeEditor,
): Promise<KnowledgeEntryRow[]> {
  return database
    .select()
    .from(knowledgeEntries)
    .where(
      and(
        eq(knowledgeEntries.dataSource, dataSource),
        eq(knowledgeEntries.status, "suggested"),
        viewer.administrator ? undefined : eq(knowledgeEntries.author, viewer.role),
      ),
    )
    .orderBy(asc(knowledgeEntries.createdAt), asc(knowledgeEntries.id));
}

/**
 * An administrator accepts a suggestion: it becomes the administrator's entry, shared with every role (replacing the
 * administrator's own entry of that kind and name, if any), with the proposer kept as `suggestedBy`. Undefined when
 * `administrator` is not one or there is no such suggestion.
 */
export async function acceptKnowledgeSuggestion(
  database: MetadataDatabase,
  dataSource: string,
  id: string,
  administrator: KnowledgeEditor,
): Promise<KnowledgeEntryRow | undefined> {
  if (!administrator.administrator || !uuidPattern.test(id)) return undefined;
  await loadSqlParser();
  return database.transaction(async (transaction) => {
    const [suggestion] = await transaction
      .select()
      .from(knowledgeEntries)
      .where(
        and(
          eq(knowledgeEntries.id, id),
          eq(knowledgeEntries.dataSource, dataSource),
          eq(knowledgeEntries.status, "suggested"),
        ),
      )
      .for("update");
    if (!suggestion) return undefined;
    const content = normalizeKnowledgeContent({
      kind: suggestion.kind as KnowledgeEntryContent["kind"],
      name: suggestion.name,
      text: suggestion.text,
      ...(suggestion.sql ? { sql: suggestion.sql } : {}),
      references: suggestion.references,
      ...(suggestion.reading ? { reading: suggestion.reading } : {}),
    });
    const suggestedBy = suggestion.suggestedBy ?? suggestion.author;
    const [existing] = await transaction
      .select({ id: knowledgeEntries.id })
      .from(knowledgeEntries)
      .where(sameKey(dataSource, content, administrator.role));
    if (!existing) {
      // The suggestion itself becomes the entry: it keeps its id and its history.
      const [row] = await transaction
        .update(knowledgeEntries)
        .set({ status: "active", ...ownership(administrator), suggestedBy, updatedAt: sql`now()` })
        .where(eq(knowledgeEntries.id, id))
        .returning();
      await recordChange(transaction, row!, "accepted", administrator.role);
      return row;
    }
    // The administrator's entry of that kind and name takes the suggestion's content; the suggestion goes.
    await transaction.delete(knowledgeEntries).where(eq(knowledgeEntries.id, id));
    await recordChange(transaction, suggestion, "accepted", administrator.role);
    const { entry } = await saveIn(
      transaction,
      {
        dataSource,
        kind: content.kind,
        name: content.name,
        text: content.text,
        origin: "suggestion",
        ...(suggestion.externalId ? { externalId: suggestion.externalId } : {}),
        ...(suggestion.provenance ? { provenance: suggestion.provenance } : {}),
      },
      content,
      administrator,
      { suggestedBy, action: "accepted" },
    );
    return entry;
  });
}

/** Rejects a suggestion (an administrator) or withdraws it (its proposer); false when there is no such suggestion. */
export async function rejectKnowledgeSuggestion(
  database: MetadataDatabase,
  dataSource: string,
  id: string,
  editor: KnowledgeEditor,
): Promise<boolean> {
  if (!uuidPattern.test(id)) return false;
  return database.transaction(async (transaction) => {
    const [row] = await transaction
      .delete(knowledgeEntries)
      .where(
        and(
          eq(knowledgeEntries.id, id),
          eq(knowledgeEntries.dataSource, dataSource),
          eq(knowledgeEntries.status, "suggested"),
          editor.administrator ? undefined : eq(knowledgeEntries.author, editor.role),
        ),
      )
      .returning();
    if (!row) return false;
    await recordChange(transaction, row, "rejected", editor.role);
    return true;
  });
}
