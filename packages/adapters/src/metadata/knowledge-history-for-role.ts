import {
  introspectCatalog,
  loadSqlParser,
  type QueryExecutor,
  readableElementNames,
  readableKnowledge,
  runReadOnly,
  type TransactionStatus,
} from "@nlq/engine";
import { KnowledgeStore } from "./knowledge-store";
import type { KnowledgeEditor } from "./knowledge-store-types";
import type { MetadataDatabase } from "./metadata-database";
import type { KnowledgeHistoryRow, KnowledgeSnapshot } from "./schema/knowledge";

/** One change of an entry as a role's screen shows it (the web page, `nlq knowledge history`). */
export interface KnowledgeChange {
  /** `created`, `updated`, `accepted`, `removed`, … as the store recorded it. */
  readonly action: string;
  readonly changedAt: string;
  /** `you`, the role's name (to an administrator), or `another role`: never an ordinary role's name to another. */
  readonly changedBy: string;
  /** The entry as it was after the change (as it was before it, for a removal). */
  readonly name: string;
  readonly text: string;
  readonly sql?: string;
  readonly references: readonly string[];
}

export interface KnowledgeHistoryForRoleOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  readonly id: string;
  /** Who asks (`current_user` of `session`) and whether it is an administrator. */
  readonly viewer: KnowledgeEditor;
  /** A session authenticated as the viewer on the target database: what it may read is introspected there. */
  readonly session: QueryExecutor;
  readonly transactionStatus?: TransactionStatus;
  /** `statement_timeout` of the introspection (`NLQ_STATEMENT_TIMEOUT_MS`). */
  readonly statementTimeoutMilliseconds: number;
}

/** The table and column names the session's role may read, introspected read-only. */
async function readableNames(options: KnowledgeHistoryForRoleOptions): Promise<ReadonlySet<string>> {
  const catalog = await runReadOnly(options, introspectCatalog);
  await loadSqlParser();
  return readableElementNames(catalog);
}

function readableVersion(snapshot: KnowledgeSnapshot, readable: ReadonlySet<string>): boolean {
  return (
    readableKnowledge(
      [{ references: snapshot.references, reading: snapshot.reading ?? undefined, sql: snapshot.sql ?? undefined }],
      readable,
    ).length === 1
  );
}

function changeView(row: KnowledgeHistoryRow, viewer: KnowledgeEditor): KnowledgeChange {
  const changedBy = row.changedBy === viewer.role ? "you" : viewer.administrator ? row.changedBy : "another role";
  return {
    action: row.action,
    changedAt: row.changedAt.toISOString(),
    changedBy,
    name: row.entry.name,
    text: row.entry.text,
    ...(row.entry.sql ? { sql: row.entry.sql } : {}),
    references: row.entry.references,
  };
}

/**
 * The history of an entry as a role may be shown it, oldest first — the one rule of the web page and
 * `nlq knowledge history`: the store must let the viewer see the entry (its own or a shared one; as it last was, once
 * removed), the viewer must be able to read every table and column the entry names now (or named when removed), and
 * each older version is listed only when the viewer may read what that version named. Who made a change is named to
 * the one who made it and to administrators only. Empty for any other entry, never saying whether it exists.
 */
export async function knowledgeHistoryForRole(options: KnowledgeHistoryForRoleOptions): Promise<KnowledgeChange[]> {
  const rows = await new KnowledgeStore(options.database).history(options.dataSource, options.id, options.viewer);
  const latest = rows.at(-1);
  if (!latest) return [];
  const readable = await readableNames(options);
  if (!readableVersion(latest.entry, readable)) return [];
  return rows.filter((row) => readableVersion(row.entry, readable)).map((row) => changeView(row, options.viewer));
}
