import type { KnowledgeOrigin } from "@nlq/engine";
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import {
  checkedOrigin,
  type KnowledgeEntryContent,
  type NormalizedKnowledgeContent,
  normalizeKnowledgeContent,
} from "./knowledge-entry-input";
import { KnowledgeConflictError } from "./knowledge-errors";
import type { MetadataDatabase } from "./metadata-database";
import {
  type KnowledgeEntryRow,
  type KnowledgeHistoryRow,
  type KnowledgeSnapshot,
  knowledgeEntries,
  knowledgeHistory,
} from "./schema/knowledge";

/** A new entry: its content, where it came from and on which data source (`host:port/database`). */
export interface NewKnowledgeEntry extends KnowledgeEntryContent {
  readonly dataSource: string;
  readonly origin: KnowledgeOrigin;
  /** Where an imported entry came from (a dbt node's `unique_id`). Default: none. */
  readonly externalId?: string;
  /** How a `reading` entry was made ("picked from 3 readings by alice"). Default: none. */
  readonly provenance?: string;
}

/** Who is acting: the signed-in role and whether it is an administrator (as for verified examples). */
export interface KnowledgeEditor {
  readonly role: string;
  readonly administrator: boolean;
}

/** What `save` did. */
export type KnowledgeSaveAction = "created" | "updated" | "unchanged";

/** What an import changed (`sync`). */
export interface KnowledgeSyncCounts {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
}

type Transaction = Parameters<Parameters<MetadataDatabase["transaction"]>[0]>[0];
type Writer = MetadataDatabase | Transaction;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The knowledge base of each data source in the metadata store (docs/decisions/2026-12-01-readings-knowledge-and-
 * teaching.md, rule 1). An entry belongs to the role that wrote it; an administrator's is shared with every role. A
 * role sees its own and the shared ones, never another ordinary role's; which of those it may actually be shown is
 * decided against the target database (`knowledgeForRole`, `readableKnowledge`): this store only knows owners. Owners
 * change and remove their own entries, administrators also the shared ones; a change makes the entry the editor's
 * (shared when the editor is an administrator), as verified examples do. Suggestions wait, used nowhere, until an
 * administrator accepts them. Every change is written to `knowledge_history` in the same transaction.
 */
export class KnowledgeStore {
  constructor(private readonly database: MetadataDatabase) {}

  /**
   * Adds an entry as `editor`'s (shared with every role when `editor` is an administrator); the editor's active entry
   * of the same kind and name on the data source is replaced instead (`updated`), or left alone when nothing differs
   * (`unchanged`). Throws `KnowledgeEntryError` for content that cannot be stored.
   */
  async save(
    entry: NewKnowledgeEntry,
    editor: KnowledgeEditor,
  ): Promise<{ readonly entry: KnowledgeEntryRow; readonly action: KnowledgeSaveAction }> {
    const content = normalizeKnowledgeContent(entry);
    checkedOrigin(entry.origin);
    return this.database.transaction((transaction) => saveIn(transaction, entry, content, editor));
  }

  /**
   * The active entries of the data source `role` may be offered — its own and those shared with all roles — most
   * recently changed first (at most `limit`, default 2,000). Still to be checked against the database: an entry
   * reaches a role only when it may read every table and column it names.
   */
  visibleTo(dataSource: string, role: string, limit = 2_000): Promise<KnowledgeEntryRow[]> {
    return this.database
      .select()
      .from(knowledgeEntries)
      .where(
        and(eq(knowledgeEntries.dataSource, dataSource), eq(knowledgeEntries.status, "active"), visibleToRole(role)),
      )
      .orderBy(desc(knowledgeEntries.updatedAt), asc(knowledgeEntries.id))
      .limit(limit);
  }

  /**
   * One entry `viewer` may see: an active one of its own or shared, or a suggestion it made (any suggestion for an
   * administrator). Undefined otherwise, never saying whether it exists.
   */
  async find(dataSource: string, id: string, viewer: KnowledgeEditor): Promise<KnowledgeEntryRow | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [row] = await this.database
      .select()
      .from(knowledgeEntries)
      .where(and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.dataSource, dataSource), seenBy(viewer)));
    return row;
  }

  /**
   * Changes an entry's content: the owner its own, an administrator also the shared ones. The entry then belongs to
   * `editor` (shared when an administrator). Undefined when there is no such entry or `editor` may not change it;
   * `KnowledgeConflictError` when the editor already has an entry of that kind and name.
   */
  async update(
    dataSource: string,
    id: string,
    change: Partial<Omit<KnowledgeEntryContent, "kind">>,
    editor: KnowledgeEditor,
  ): Promise<KnowledgeEntryRow | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    return this.database.transaction(async (transaction) => {
      const [current] = await transaction
        .select()
        .from(knowledgeEntries)
        .where(and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.dataSource, dataSource), changeableBy(editor)))
        .for("update");
      if (!current) return undefined;
      const content = normalizeKnowledgeContent({
        kind: current.kind as KnowledgeEntryContent["kind"],
        name: change.name ?? current.name,
        text: change.text ?? current.text,
        ...((change.sql ?? current.sql) ? { sql: change.sql ?? current.sql ?? undefined } : {}),
        references: change.references ?? current.references,
        ...((change.reading ?? current.reading) ? { reading: change.reading ?? current.reading ?? undefined } : {}),
      });
      await refuseDuplicate(transaction, dataSource, content, editor.role, id);
      const [row] = await transaction
        .update(knowledgeEntries)
        .set({ ...contentColumns(content), ...ownership(editor), updatedAt: sql`now()` })
        .where(eq(knowledgeEntries.id, id))
        .returning();
      await recordChange(transaction, row!, "updated", editor.role);
      return row;
    });
  }

  /** Removes an entry `editor` may change (as `update`); false when there is no such entry. */
  async remove(dataSource: string, id: string, editor: KnowledgeEditor): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    return this.database.transaction(async (transaction) => {
      const [row] = await transaction
        .delete(knowledgeEntries)
        .where(and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.dataSource, dataSource), changeableBy(editor)))
        .returning();
      if (!row) return false;
      await recordChange(transaction, row, "removed", editor.role);
      return true;
    });
  }

  /**
   * Proposes an entry for every role (the MCP `propose_knowledge` tool): kept as `role`'s suggestion, used by no prompt
   * and shown to no other role until an administrator accepts it.
   */
  async suggest(entry: Omit<NewKnowledgeEntry, "origin">, role: string): Promise<KnowledgeEntryRow> {
    const content = normalizeKnowledgeContent(entry);
    return this.database.transaction(async (transaction) => {
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
  suggestions(dataSource: string, viewer: KnowledgeEditor): Promise<KnowledgeEntryRow[]> {
    return this.database
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
  async accept(dataSource: string, id: string, administrator: KnowledgeEditor): Promise<KnowledgeEntryRow | undefined> {
    if (!administrator.administrator || !uuidPattern.test(id)) return undefined;
    return this.database.transaction(async (transaction) => {
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
  async reject(dataSource: string, id: string, editor: KnowledgeEditor): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    return this.database.transaction(async (transaction) => {
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

  /**
   * Every change of an entry, oldest first, when `viewer` may see the entry as it is now — or, once removed, as it last
   * was (its own or a shared one; any suggestion for an administrator). Empty otherwise.
   */
  async history(dataSource: string, id: string, viewer: KnowledgeEditor): Promise<KnowledgeHistoryRow[]> {
    if (!uuidPattern.test(id)) return [];
    const rows = await this.database
      .select()
      .from(knowledgeHistory)
      .where(and(eq(knowledgeHistory.entryId, id), eq(knowledgeHistory.dataSource, dataSource)))
      .orderBy(asc(knowledgeHistory.changedAt), asc(knowledgeHistory.id));
    const current = await this.find(dataSource, id, viewer);
    const last = rows.at(-1)?.entry;
    const visible = current !== undefined || (last !== undefined && snapshotSeenBy(last, viewer));
    return visible ? rows : [];
  }

  /**
   * Makes `editor`'s entries of `origin` on the data source what an import says (a dbt manifest, a YAML file, the
   * database's comments): each entry saved as `save` does, and — with `removeMissing` — the editor's other entries of
   * that origin removed, so a description deleted upstream leaves nlq too. One transaction: an import applies whole
   * or not at all.
   */
  async sync(
    dataSource: string,
    origin: KnowledgeOrigin,
    entries: readonly Omit<NewKnowledgeEntry, "dataSource" | "origin">[],
    editor: KnowledgeEditor,
    options: { readonly removeMissing?: boolean } = {},
  ): Promise<KnowledgeSyncCounts> {
    checkedOrigin(origin);
    const prepared = entries.map((entry) => ({ entry, content: normalizeKnowledgeContent(entry) }));
    return this.database.transaction(async (transaction) => {
      const counts = { created: 0, updated: 0, unchanged: 0, removed: 0 };
      const kept = new Set<string>();
      for (const { entry, content } of prepared) {
        const { entry: row, action } = await saveIn(transaction, { ...entry, dataSource, origin }, content, editor);
        counts[action]++;
        kept.add(row.id);
      }
      if (options.removeMissing) {
        const stale = await transaction
          .select({ id: knowledgeEntries.id })
          .from(knowledgeEntries)
          .where(
            and(
              eq(knowledgeEntries.dataSource, dataSource),
              eq(knowledgeEntries.origin, origin),
              eq(knowledgeEntries.status, "active"),
              ownedBy(editor),
            ),
          );
        const ids = stale.map((row) => row.id).filter((id) => !kept.has(id));
        if (ids.length > 0) {
          const removed = await transaction
            .delete(knowledgeEntries)
            .where(inArray(knowledgeEntries.id, ids))
            .returning();
          for (const row of removed) await recordChange(transaction, row, "removed", editor.role);
          counts.removed = removed.length;
        }
      }
      return counts;
    });
  }
}

/** Saves `content` as the editor's active entry of its kind and name: insert, replace, or nothing when equal. */
async function saveIn(
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

function contentColumns(content: NormalizedKnowledgeContent) {
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
function ownership(editor: KnowledgeEditor) {
  return { author: editor.role, sharedWithAllRoles: editor.administrator };
}

function sameContent(row: KnowledgeEntryRow, values: ReturnType<typeof contentColumns> & Record<string, unknown>) {
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

function sameKey(dataSource: string, content: NormalizedKnowledgeContent, author: string): SQL | undefined {
  return and(
    eq(knowledgeEntries.dataSource, dataSource),
    eq(knowledgeEntries.author, author),
    eq(knowledgeEntries.kind, content.kind),
    eq(knowledgeEntries.nameKey, content.nameKey),
    eq(knowledgeEntries.status, "active"),
  );
}

/** An edit must not give the editor a second active entry of one kind and name. */
async function refuseDuplicate(
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

async function recordChange(writer: Writer, row: KnowledgeEntryRow, action: string, changedBy: string): Promise<void> {
  await writer.insert(knowledgeHistory).values({
    entryId: row.id,
    dataSource: row.dataSource,
    action,
    changedBy,
    entry: snapshotOf(row),
  });
}

function snapshotOf(row: KnowledgeEntryRow): KnowledgeSnapshot {
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

function visibleToRole(role: string) {
  return or(eq(knowledgeEntries.author, role), eq(knowledgeEntries.sharedWithAllRoles, true));
}

/** Active entries of `viewer` or shared, and suggestions it made (every suggestion for an administrator). */
function seenBy(viewer: KnowledgeEditor) {
  return or(
    and(eq(knowledgeEntries.status, "active"), visibleToRole(viewer.role)),
    and(
      eq(knowledgeEntries.status, "suggested"),
      viewer.administrator ? undefined : eq(knowledgeEntries.author, viewer.role),
    ),
  );
}

function snapshotSeenBy(snapshot: KnowledgeSnapshot, viewer: KnowledgeEditor): boolean {
  if (snapshot.status === "suggested") return viewer.administrator || snapshot.author === viewer.role;
  return snapshot.author === viewer.role || snapshot.sharedWithAllRoles;
}

/** An editor's own entries as it writes them now: shared ones for an administrator, private ones otherwise. */
function ownedBy(editor: KnowledgeEditor) {
  return and(eq(knowledgeEntries.author, editor.role), eq(knowledgeEntries.sharedWithAllRoles, editor.administrator));
}

/**
 * The active entries `editor` may change: its own private ones; an administrator also every shared one. A role that
 * is no longer an administrator cannot change what it once shared.
 */
function changeableBy(editor: KnowledgeEditor) {
  const own = and(eq(knowledgeEntries.author, editor.role), eq(knowledgeEntries.sharedWithAllRoles, false));
  return and(
    eq(knowledgeEntries.status, "active"),
    editor.administrator ? or(own, eq(knowledgeEntries.sharedWithAllRoles, true)) : own,
  );
}
