/**
 * The one way core touches a target database: run one SQL text on a session and get text-format results.
 * Adapters: node-postgres (`pg-executor.ts`), the proxy's own upstream connection (apps/proxy).
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
  /** The CommandComplete tag, e.g. `SELECT 3`. */
  readonly command: string;
}

/** Transaction state of a session, as ReadyForQuery reports it (I, T, E). */
export type TransactionStatus = "idle" | "in-transaction" | "failed";

export interface QueryOptions {
  readonly sql: string;
  readonly abortSignal?: AbortSignal;
}

/** Runs one statement on one database session. Throws `DatabaseError` with PostgreSQL's SQLSTATE on failure. */
export interface QueryExecutor {
  readonly name: string;
  query(options: QueryOptions): Promise<QueryResult>;
}
