import { type KnowledgeOrigin, loadSqlParser } from "@nlq/engine";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { checkedOrigin, type KnowledgeEntryContent, normalizeKnowledgeContent } from "./knowledge-entry-input";
import { changeableBy, ownedBy, seenBy, snapshotSeenBy, visibleToRole } from "./knowledge-entry-scope";
import { contentColumns, ownership, recordChange, refuseDuplicate, saveIn } from "./knowledge-entry-writes";
import {
  type KnowledgeEditor,
  type KnowledgeSaveAction,
  type KnowledgeSyncCounts,
  type NewKnowledgeEntry,
  uuidPattern,
} from "./knowledge-store-types";
import {
  acceptKnowledgeSuggestion,
  knowledgeSuggestions,
  rejectKnowledgeSuggestion,
  suggestKnowledge,
} from "./knowledge-suggestions";
import type { MetadataDatabase } from "./metadata-database";
import {
  type KnowledgeEntryRow,
  type KnowledgeHistoryRow,
  knowledgeEntries,
  knowledgeHistory,
} from "./schema/knowledge";

export type {
  KnowledgeEditor,
  KnowledgeSaveAction,
  KnowledgeSyncCounts,
  NewKnowledgeEntry,
} from "./knowledge-store-types";

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
    await loadSqlParser();
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
    await loadSqlParser();
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
   * and shown to no other role until an administrator accepts it (`knowledge-suggestions.ts`).
   */
  suggest(entry: Omit<NewKnowledgeEntry, "origin">, role: string): Promise<KnowledgeEntryRow> {
    return suggestKnowledge(this.database, entry, role);
  }

  /** Suggestions waiting on the data source: every one for an administrator, a role's own otherwise; oldest first. */
  suggestions(dataSource: string, viewer: KnowledgeEditor): Promise<KnowledgeEntryRow[]> {
    return knowledgeSuggestions(this.database, dataSource, viewer);
  }

  /**
   * An administrator accepts a suggestion: it becomes the administrator's entry, shared with every role. Undefined when
   * `administrator` is not one or there is no such suggestion.
   */
  accept(dataSource: string, id: string, administrator: KnowledgeEditor): Promise<KnowledgeEntryRow | undefined> {
    return acceptKnowledgeSuggestion(this.database, dataSource, id, administrator);
  }

  /** Rejects a suggestion (an administrator) or withdraws it (its proposer); false when there is no such suggestion. */
  reject(dataSource: string, id: string, editor: KnowledgeEditor): Promise<boolean> {
    return rejectKnowledgeSuggestion(this.database, dataSource, id, editor);
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
    await loadSqlParser();
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
