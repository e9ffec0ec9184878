/**
 * The one way core touches a target database: run exactly one SQL statement on a session and get text-format
 * results. Every adapter sends the text as one extended-protocol Parse (one Parse cannot hold two commands), so a
 * text that PostgreSQL would lex as several statements fails instead of running them.
 * Adapters: node-postgres (`pg-executor.ts`), the proxy's own upstream connection (packages/proxy).
 */

/** A column of a result, as PostgreSQL's RowDescription describes it. */
export interface ResultField {
  readonly name: string;
  /** Type OID (pg_type.oid). */
  readonly dataTypeId: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
  /** OID of the source table, or 0. */
  readonly tableId: number;
  /** Attribute number in the source table, or 0. */
  readonly columnId: number;
}

/** The result of one statement, values in PostgreSQL's text format (null for SQL NULL). */
export interface QueryResult {
  readonly fields: readonly ResultField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** The CommandComplete tag, e.g. `SELECT 3` (empty when the statement was cancelled at the byte limit). */
  readonly command: string;
  /** True when `resultByteLimit` cut the result: `rows` are the ones that fit and the statement was cancelled. */
  readonly cutByBytes?: boolean;
}

/** Transaction state of a session, as ReadyForQuery reports it (I, T, E). */
export type TransactionStatus = "idle" | "in-transaction" | "failed";

export interface QueryOptions {
  /** Exactly one statement (sent as one extended-protocol Parse, without parameters). */
  readonly sql: string;
  readonly abortSignal?: AbortSignal;
  /**
   * Most bytes of DataRow messages kept for the result, counted as each row arrives. Once a row would pass it, that
   * row and every later one are dropped, the statement is cancelled and the result is marked `cutByBytes`.
   * Default: no limit.
   */
  readonly resultByteLimit?: number;
}

/**
 * Runs one statement on one database session. Throws `DatabaseError` with PostgreSQL's SQLSTATE on failure
 * (including 42601 "cannot insert multiple commands into a prepared statement" for a text holding several).
 */
export interface QueryExecutor {
  readonly name: string;
  query(options: QueryOptions): Promise<QueryResult>;
}
