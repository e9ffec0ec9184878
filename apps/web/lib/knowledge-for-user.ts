import {
  type KnowledgeChange,
  type KnowledgeEditor,
  type KnowledgeEntryRow,
  type KnowledgeEntryView,
  KnowledgeStore,
  knowledgeEntryForRole,
  knowledgeEntryView,
  knowledgeHistoryForRole,
  type MetadataDatabase,
} from "@nlq/adapters";
import {
  introspectCatalog,
  loadSqlParser,
  type QueryExecutor,
  readableElementNames,
  readableKnowledge,
  runReadOnly,
} from "@nlq/engine";

/** Who is looking, on which data source, and the session (as that role) its readable tables and columns are read on. */
export interface KnowledgeViewer extends KnowledgeEditor {
  readonly dataSource: string;
  readonly session: QueryExecutor;
  /** `statement_timeout` of the catalog introspection (`NLQ_STATEMENT_TIMEOUT_MS`). */
  readonly statementTimeoutMilliseconds: number;
}

/** An entry as the knowledge page shows it; an administrator also sees who proposed a suggestion. */
export interface KnowledgePageEntry extends KnowledgeEntryView {
  readonly proposedBy?: string;
}

/** What the knowledge page lists for a role. */
export interface KnowledgePageData {
  readonly entries: readonly KnowledgePageEntry[];
  /** Suggestions waiting for an administrator: every one for an administrator, the role's own otherwise. */
  readonly suggestions: readonly KnowledgePageEntry[];
  readonly administrator: boolean;
}

/** One change of an entry as the page shows it (the rule `nlq knowledge history` follows too). */
export type { KnowledgeChange } from "@nlq/adapters";

/** Most entries the page lists. */
const maximumListed = 2_000;

/** The table and column names the viewer may read, introspected read-only on its own session. */
async function readableNames(viewer: KnowledgeViewer): Promise<ReadonlySet<string>> {
  const catalog = await runReadOnly(viewer, introspectCatalog);
  await loadSqlParser();
  return readableElementNames(catalog);
}

function pageEntry(row: KnowledgeEntryRow, viewer: KnowledgeViewer): KnowledgePageEntry {
  const view = knowledgeEntryView(row, viewer.role);
  const proposer = row.suggestedBy ?? (row.status === "suggested" ? row.author : null);
  return viewer.administrator && proposer !== null && row.status === "suggested"
    ? { ...view, proposedBy: proposer }
    : view;
}

/**
 * What the knowledge page shows `viewer` (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 1): its own
 * entries and those administrators shared, and the suggestions it may see — each only when the role may read every
 * table and column it names (`readableKnowledge`, the rule prompts follow). Another ordinary role's entries are never
 * listed, nor is any name but the viewer's own (an administrator also sees who proposed a suggestion).
 */
export async function knowledgeForUser(
  database: MetadataDatabase,
  viewer: KnowledgeViewer,
): Promise<KnowledgePageData> {
  const store = new KnowledgeStore(database);
  const [visible, suggested] = await Promise.all([
    store.visibleTo(viewer.dataSource, viewer.role, maximumListed),
    store.suggestions(viewer.dataSource, viewer),
  ]);
  if (visible.length === 0 && suggested.length === 0) {
    return { entries: [], suggestions: [], administrator: viewer.administrator };
  }
  const readable = await readableNames(viewer);
  return {
    entries: readableKnowledge(visible, readable).map((row) => pageEntry(row, viewer)),
    suggestions: readableKnowledge(suggested, readable).map((row) => pageEntry(row, viewer)),
    administrator: viewer.administrator,
  };
}

/** One entry of the page's data source, looked up as `viewer` on its own session. */
function entryLookup(database: MetadataDatabase, viewer: KnowledgeViewer, id: string) {
  return {
    database,
    dataSource: viewer.dataSource,
    id,
    viewer: { role: viewer.role, administrator: viewer.administrator },
    session: viewer.session,
    statementTimeoutMilliseconds: viewer.statementTimeoutMilliseconds,
  };
}

/**
 * The entry `viewer` may see on the page (as `knowledgeForUser` lists it), or undefined — also for an entry naming
 * anything the role may not read, so a change or a removal cannot reach what the page does not show.
 */
export function readableEntry(
  database: MetadataDatabase,
  viewer: KnowledgeViewer,
  id: string,
): Promise<KnowledgeEntryRow | undefined> {
  return knowledgeEntryForRole(entryLookup(database, viewer, id));
}

/**
 * The history of an entry the page shows the viewer, oldest first (`knowledgeHistoryForRole`: each version only when
 * the role may read what that version named; who changed it named only to that role and administrators). Empty for
 * any other entry — a removed one too: the page lists only what is there (`nlq knowledge history` also reads removed
 * entries' by id).
 */
export async function knowledgeHistoryForUser(
  database: MetadataDatabase,
  viewer: KnowledgeViewer,
  id: string,
): Promise<KnowledgeChange[]> {
  if (!(await readableEntry(database, viewer, id))) return [];
  return knowledgeHistoryForRole(entryLookup(database, viewer, id));
}
