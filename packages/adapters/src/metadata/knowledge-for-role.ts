import {
  introspectCatalog,
  loadSqlParser,
  type QueryExecutor,
  readableKnowledge,
  runReadOnly,
  type TransactionStatus,
} from "@nlq/engine";
import { KnowledgeStore } from "./knowledge-store";
import type { KnowledgeEditor } from "./knowledge-store-types";
import type { MetadataDatabase } from "./metadata-database";
import type { KnowledgeEntryRow } from "./schema/knowledge";

export interface KnowledgeForRoleOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  /** The asking role (`current_user` of `session`). */
  readonly role: string;
  /** A session authenticated as `role` on the target database: what it may read is introspected there, read-only. */
  readonly session: QueryExecutor;
  /** The session's transaction state now. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** `statement_timeout` of the introspection (`NLQ_STATEMENT_TIMEOUT_MS`). */
  readonly statementTimeoutMilliseconds: number;
  /** Most entries returned. Default 2,000. */
  readonly limit?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * The one lookup of knowledge for a role's screen (the web page, `nlq knowledge list`, MCP's `read_knowledge`): the
 * active entries the store lets `role` see (its own and administrators' shared ones), kept only when `role` may read
 * every table and column each names — checked against the catalog introspected on its own session (`readableKnowledge`,
 * the rule the engine applies to prompts). Most recently changed first.
 */
export async function knowledgeForRole(options: KnowledgeForRoleOptions): Promise<KnowledgeEntryRow[]> {
  const visible = await new KnowledgeStore(options.database).visibleTo(options.dataSource, options.role, options.limit);
  if (visible.length === 0) return [];
  const catalog = await runReadOnly(options, introspectCatalog);
  await loadSqlParser();
  return readableKnowledge(visible, catalog);
}

export interface KnowledgeEntryForRoleOptions extends Omit<KnowledgeForRoleOptions, "role" | "limit"> {
  readonly id: string;
  /** Who asks (`current_user` of `session`) and whether it is an administrator. */
  readonly viewer: KnowledgeEditor;
}

/**
 * One entry as a role's screen may show it (`nlq knowledge edit`, the web page's edit and delete): one the store lets
 * the viewer see (`KnowledgeStore.find`) and whose every table and column the viewer may read. Undefined otherwise —
 * also for an entry naming what the role may not read, so a change cannot reach what the role's list does not show.
 */
export async function knowledgeEntryForRole(
  options: KnowledgeEntryForRoleOptions,
): Promise<KnowledgeEntryRow | undefined> {
  const row = await new KnowledgeStore(options.database).find(options.dataSource, options.id, options.viewer);
  if (!row) return undefined;
  const catalog = await runReadOnly(options, introspectCatalog);
  await loadSqlParser();
  return readableKnowledge([row], catalog)[0];
}
