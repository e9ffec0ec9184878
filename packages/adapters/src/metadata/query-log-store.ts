import type { QueryLog, QueryLogEntry } from "@nlq/engine";
import { desc } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { MetadataStoreError } from "./metadata-store-error";
import { type QueryLogRow, queryLog } from "./schema/query-log";

/** `QueryLog` backed by the metadata store's `query_log` table. */
export class MetadataQueryLog implements QueryLog {
  readonly name = "metadata-query-log";
  readonly #database: MetadataDatabase;

  constructor(database: MetadataDatabase) {
    this.#database = database;
  }

  /** Stores one finished (or failed) question with its trace. */
  async record(entry: QueryLogEntry): Promise<void> {
    try {
      await this.#database.insert(queryLog).values({
        question: entry.question,
        sql: entry.sql,
        ok: entry.ok,
        errorCode: entry.error?.code ?? null,
        errorMessage: entry.error?.message ?? null,
        confidence: entry.confidence,
        rows: entry.rows,
        model: entry.model,
        scripted: entry.scripted,
        candidates: entry.candidates,
        calls: entry.calls,
        elapsedMilliseconds: Math.round(entry.elapsedMilliseconds),
        origin: entry.origin,
      });
    } catch (error) {
      throw new MetadataStoreError("cannot write to the query log", { driver: "metadata", cause: error });
    }
  }

  /** The latest questions, newest first (default 20). */
  async recentQueries(limit = 20): Promise<QueryLogRow[]> {
    return this.#database.select().from(queryLog).orderBy(desc(queryLog.createdAt), desc(queryLog.id)).limit(limit);
  }
}
