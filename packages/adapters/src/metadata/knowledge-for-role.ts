import {
  introspectCatalog,
  type QueryExecutor,
  readableKnowledge,
  runReadOnly,
  type TransactionStatus,
} from "@nlq/engine";
import { KnowledgeStore } from "./knowledge-store";
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
  const catalog = await runReadOnly(
    {
      session: options.session,
      transactionStatus: options.transactionStatus ?? "idle",
      statementTimeoutMilliseconds: options.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    (query) => introspectCatalog(query),
  );
  return readableKnowledge(visible, catalog);
}
