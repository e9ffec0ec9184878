import type { QueryExecutor, QueryOptions, QueryResult } from "@nlq/engine";
import { CancelledError, DatabaseError } from "@nlq/engine";
import pg from "pg";
import { PgExtendedQuery } from "./pg-extended-query";

/** A node-postgres connection: `pg.Client` or a `pg.PoolClient`. */
export type PgConnection = pg.Client | pg.PoolClient;

export interface PgExecutorOptions {
  /** Name shown in logs. Default `pg`. */
  readonly name?: string;
}

/** Cancels the connection's running statement from a second connection (best effort); settles once it was sent. */
async function cancelRunning(connection: PgConnection): Promise<void> {
  const internals = connection as unknown as { processID?: number; connectionParameters?: pg.ClientConfig };
  if (!internals.processID || !internals.connectionParameters) return;
  const canceller = new pg.Client(internals.connectionParameters);
  try {
    await canceller.connect();
    await canceller.query("SELECT pg_cancel_backend($1)", [internals.processID]);
  } catch {
    // best effort: statement_timeout still bounds the statement
  } finally {
    await canceller.end().catch(() => undefined);
  }
}

/**
 * A `QueryExecutor` over a node-postgres connection. Each statement goes out as one extended-protocol Parse/Bind/
 * Execute/Sync (`PgExtendedQuery`), so a text holding several commands is refused by the server (42601) instead of
 * run; values stay raw strings in text format; errors become `DatabaseError` with PostgreSQL's SQLSTATE. Aborting
 * cancels the running statement and throws `CancelledError`. Past `resultByteLimit` the statement is cancelled from a
 * second connection and the rows that fit come back marked `cutByBytes` (the call settles only after the cancel was
 * delivered, so it cannot hit a later statement of the session).
 */
export function createPgExecutor(connection: PgConnection, options: PgExecutorOptions = {}): QueryExecutor {
  return {
    name: options.name ?? "pg",
    async query({ sql, abortSignal, resultByteLimit }: QueryOptions): Promise<QueryResult> {
      if (abortSignal?.aborted) throw new CancelledError();
      let cancelled: Promise<void> | undefined;
      const cancel = () => {
        cancelled ??= cancelRunning(connection);
      };
      abortSignal?.addEventListener("abort", cancel, { once: true });
      try {
        const query = new PgExtendedQuery({ text: sql, resultByteLimit, onByteLimit: cancel });
        const [outcome] = await Promise.all([query.outcome, connection.query(query as never)]);
        if (cancelled !== undefined) await cancelled;
        const { error } = outcome;
        const result: QueryResult = {
          fields: outcome.fields,
          rows: outcome.rows,
          command: outcome.cutByBytes ? "" : outcome.command,
          ...(outcome.cutByBytes ? { cutByBytes: true } : {}),
        };
        if (error === undefined) return result;
        if (abortSignal?.aborted) throw new CancelledError(undefined, { cause: error });
        if (outcome.cutByBytes && error.code === "57014") return result;
        if (!("severity" in error)) throw error;
        const details = error as { code?: string; detail?: string; hint?: string };
        throw new DatabaseError(error.message, {
          sql,
          code: details.code ?? "XX000",
          detail: details.detail,
          hint: details.hint,
          cause: error,
        });
      } finally {
        abortSignal?.removeEventListener("abort", cancel);
      }
    },
  };
}
