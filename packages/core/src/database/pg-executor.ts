import pg from "pg";
import { CancelledError, DatabaseError } from "../errors";
import type { QueryExecutor, QueryOptions, QueryResult } from "./query-executor";

/** A node-postgres connection: `pg.Client` or a `pg.PoolClient`. */
export type PgConnection = pg.Client | pg.PoolClient;

export interface PgExecutorOptions {
  /** Name shown in logs. Default `pg`. */
  readonly name?: string;
}

/** Every value stays in PostgreSQL's text format. */
const textTypes = { getTypeParser: () => (value: string) => value };

interface PgFieldError {
  message: string;
  code?: string;
  detail?: string;
  hint?: string;
}

function isPgError(error: unknown): error is PgFieldError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}

function commandTag(result: pg.QueryResult): string {
  if (result.rowCount === null || result.rowCount === undefined) return result.command ?? "";
  if (result.command === "INSERT") return `INSERT 0 ${result.rowCount}`;
  return `${result.command} ${result.rowCount}`;
}

/** Cancels the connection's running statement from a second connection (best effort). */
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
 * A `QueryExecutor` over a node-postgres connection: simple-protocol text queries, values as raw strings
 * (no type parsing), errors mapped to `DatabaseError` with PostgreSQL's SQLSTATE. With several statements in one
 * text, the last result is returned. Aborting cancels the running statement and throws `CancelledError`.
 */
export function createPgExecutor(connection: PgConnection, options: PgExecutorOptions = {}): QueryExecutor {
  return {
    name: options.name ?? "pg",
    async query({ sql, abortSignal }: QueryOptions): Promise<QueryResult> {
      if (abortSignal?.aborted) throw new CancelledError();
      const onAbort = () => void cancelRunning(connection);
      abortSignal?.addEventListener("abort", onAbort, { once: true });
      try {
        const raw = (await connection.query({ text: sql, rowMode: "array", types: textTypes })) as
          | pg.QueryResult<string[]>
          | pg.QueryResult<string[]>[];
        const result = Array.isArray(raw) ? raw[raw.length - 1]! : raw;
        return {
          fields: (result.fields ?? []).map((field) => ({
            name: field.name,
            dataTypeId: field.dataTypeID,
            dataTypeSize: field.dataTypeSize,
            dataTypeModifier: field.dataTypeModifier,
            tableId: field.tableID,
            columnId: field.columnID,
          })),
          rows: result.rows ?? [],
          command: commandTag(result),
        };
      } catch (error) {
        if (isPgError(error)) {
          if (abortSignal?.aborted && error.code === "57014") throw new CancelledError(undefined, { cause: error });
          throw new DatabaseError(error.message, {
            sql,
            code: error.code ?? "XX000",
            detail: error.detail,
            hint: error.hint,
            cause: error,
          });
        }
        throw error;
      } finally {
        abortSignal?.removeEventListener("abort", onAbort);
      }
    },
  };
}
