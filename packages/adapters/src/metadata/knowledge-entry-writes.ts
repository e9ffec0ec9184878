import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { NormalizedKnowledgeContent } from "./knowledge-entry-input";
import { KnowledgeConflictError } from "./knowledge-errors";
import type { KnowledgeEditor, KnowledgeSaveAction, NewKnowledgeEntry, Writer } from "./knowledge-store-types";
import { type KnowledgeEntryRow, type KnowledgeSnapshot, knowledgeEntries, knowledgeHistory } from "./schema/knowledge";

/**
 * How `KnowledgeStore` writes an entry: saved as the editor's (insert, replace, or nothing when equal), its columns and
 * ownership, the duplicate check of an edit, and the `knowledge_history` row of every change.
 */

/** Saves `content` as the editor's active entry of its kind and name: insert, replace, or nothing when equal. */
export async function saveIn(
  writer: Writer,
  entry: NewKnowledgeEntry,
  content: NormalizedKnowledgeContent,
  editor: KnowledgeEditor,
  options: { readonly suggestedBy?: string; readonly action?: "accepted" } = {},
): Promise<{ entry: KnowledgeEntryRow; action: KnowledgeSaveAction }> {
  const values = {
    ...contentColumns(content),
    origin: entry.origin,
    externalId: entry.externalId ?? null,
    provenance: entry.provenance ?? null,
    ...ownership(editor),
    suggestedBy: options.suggestedBy ?? null,
  };
  const [existing] = await writer
    .select()
    .from(knowledgeEntries)
    .where(sameKey(entry.dataSource, content, editor.role))
    .for("update");
  if (existing) {
    if (sameContent(existing, values)) return { entry: existing, action: "unchanged" };
    const [row] = await writer
      .update(knowledgeEntries)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(knowledgeEntries.id, existing.id))
      .returning();
    await recordChange(writer, row!, options.action ?? "updated", editor.role);
    return { entry: row!, action: "updated" };
  }
  const [row] = await writer
    .insert(knowledgeEntries)
    .values({ dataSource: entry.dataSource, ...values, status: "active" })
    .returning();
  await recordChange(writer, row!, options.action ?? "created", editor.role);
  return { entry: row!, action: "created" };
}

export function contentColumns(content: NormalizedKnowledgeContent) {
  return {
    kind: content.kind,
    name: content.name,
    nameKey: content.nameKey,
    text: content.text,
    sql: content.sql,
    references: content.references,
    reading: content.reading,
  };
}

/** Whose an entry becomes when `editor` writes it. */
export function ownership(editor: KnowledgeEditor) {
  return { author: editor.role, sharedWithAllRoles: editor.administrator };
}

export function sameContent(
  row: KnowledgeEntryRow,
  values: ReturnType<typeof contentColumns> & Record<string, unknown>,
) {
  return (
    row.name === values.name &&
    row.text === values.text &&
    row.sql === values.sql &&
    JSON.stringify(row.references) === JSON.stringify(values.references) &&
    JSON.stringify(row.reading) === JSON.stringify(values.reading) &&
    row.origin === values.origin &&
    row.externalId === values.externalId &&
    row.provenance === values.provenance &&
    row.sharedWithAllRoles === values.sharedWithAllRoles &&
    row.suggestedBy === values.suggestedBy
  );
}

export function sameKey(dataSource: string, content: NormalizedKnowledgeContent, author: string): SQL | undefined {
  return and(
    eq(knowledgeEntries.dataSource, dataSource),
    eq(knowledgeEntries.author, author),
    eq(knowledgeEntries.kind, content.kind),
    eq(knowledgeEntries.nameKey, content.nameKey),
    eq(knowledgeEntries.status, "active"),
  );
}

/** An edit must not give the editor a second active entry of one kind and name. */
export async function refuseDuplicate(
  writer: Writer,
  dataSource: string,
  content: NormalizedKnowledgeContent,
  author: string,
  id: string,
): Promise<void> {
  const [other] = await writer
    .select({ id: knowledgeEntries.id })
    .from(knowledgeEntries)
    .where(and(sameKey(dataSource, content, author), ne(knowledgeEntries.id, id)));
  if (other) throw new KnowledgeConflictError(content.kind, content.name);
}

export async function recordChange(
  writer: Writer,
  row: KnowledgeEntryRow,
  action: string,
  changedBy: string,
): Promise<void> {
  await writer.insert(knowledgeHistory).values({
    entryId: row.id,
    dataSource: row.dataSource,
    action,
    changedBy,
    entry: snapshotOf(row),
  });
}

export function snapshotOf(row: KnowledgeEntryRow): KnowledgeSnapshot {
  return {
    kind: row.kind,
    name: row.name,
    text: row.text,
    sql: row.sql,
    references: row.references,
    reading: row.reading ?? null,
    origin: row.origin,
    author: row.author,
    sharedWithAllRoles: row.sharedWithAllRoles,
    status: row.status,
    suggestedBy: row.suggestedBy,
  };
}
