import type { Catalog, QueryResult, TableInfo, TransactionStatus } from "@nlq/engine";
import { escapedStringLiteral, fetchSampleValues, isStoredTable, quoteIdentifier, tableKey } from "@nlq/engine";

/** Tables `fetchSampleValues` samples at most, in catalog order (its default `maxTables`). */
const SAMPLED_TABLES = 100;

export interface LiveSampleValueCacheOptions {
  /**
   * How long a table's examples are reused, in milliseconds: rows written since are shown that much later. Default
   * 60,000 (1 minute).
   */
  readonly ttlMilliseconds?: number;
  /** Tables (per role and column list) kept; the least recently used one is dropped past it. Default 2,000. */
  readonly maxEntries?: number;
  /** The clock. Default `Date.now`. */
  readonly now?: () => number;
}

/** One table's examples by column name, as `fetchSampleValues` read them. */
type TableSamples = ReadonlyMap<string, readonly string[]>;

/**
 * The examples `restrictToRole` (`live`) reads under an asking role, kept a short while, so a small indexed catalog
 * costs a question two small statements instead of sampling every table again. An entry belongs to one role (its key
 * holds the session's `current_user` and `session_user`, the server and the database), one table and the exact
 * columns sampled, which the caller computes from the role's privileges on every question: a revoked grant drops the
 * column at once, and a changed column list is a new entry. Only tables without row-level security for the asking
 * role (`row_security_active`, checked on every question) are kept: their rows are the same for every session of the
 * role, whereas a policy may depend on the session (`current_setting`, the time), so those tables are read every time.
 * Only a session outside a transaction reads or fills it (no uncommitted rows of its own, a current snapshot). Holders
 * keep one per data source and index state (`prepare-indexed-question.ts`).
 */
export class LiveSampleValueCache {
  readonly #entries = new Map<string, { readonly samples: TableSamples; readonly storedAt: number }>();
  readonly #ttlMilliseconds: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: LiveSampleValueCacheOptions = {}) {
    this.#ttlMilliseconds = options.ttlMilliseconds ?? 60_000;
    this.#maxEntries = Math.max(1, options.maxEntries ?? 2_000);
    this.#now = options.now ?? Date.now;
  }

  /** Tables held now (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.#entries.size;
  }

  get(key: string): TableSamples | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (this.#now() - entry.storedAt > this.#ttlMilliseconds) return undefined;
    this.#entries.set(key, entry);
    return entry.samples;
  }

  set(key: string, samples: TableSamples): void {
    this.#entries.delete(key);
    this.#entries.set(key, { samples, storedAt: this.#now() });
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

/**
 * `fetchSampleValues` of `catalog` (read under the asking role, inside its read-only scope), through `cache`: tables
 * the cache holds for this role and column list are not read again. Without a cache, or for a session in a
 * transaction, exactly `fetchSampleValues`.
 */
export async function readLiveSampleValues(
  query: (sql: string) => Promise<QueryResult>,
  catalog: Catalog,
  options: { readonly cache?: LiveSampleValueCache; readonly transactionStatus?: TransactionStatus },
): Promise<Catalog> {
  const { cache } = options;
  const sampled = catalog.tables.slice(0, SAMPLED_TABLES).filter(isStoredTable);
  if (!cache || (options.transactionStatus ?? "idle") !== "idle" || sampled.length === 0) {
    return fetchSampleValues(query, catalog);
  }
  const keys = await cacheKeys(query, sampled);
  const found = new Map<TableInfo, TableSamples>();
  for (const table of sampled) {
    const key = keys.get(table);
    const samples = key === undefined ? undefined : cache.get(key);
    if (samples) found.set(table, samples);
  }
  const missing = sampled.filter((table) => !found.has(table));
  if (missing.length > 0) {
    const fetched = await fetchSampleValues(query, { ...catalog, tables: missing });
    fetched.tables.forEach((table, position) => {
      const samples = new Map<string, readonly string[]>();
      for (const column of table.columns) if (column.sampleValues) samples.set(column.name, column.sampleValues);
      const original = missing[position]!;
      found.set(original, samples);
      // A read that failed or timed out gives every column no examples, as an empty table does: neither is
      // remembered, so the table is read again next time (an empty one costs one cheap statement).
      const key = keys.get(original);
      if (key !== undefined && [...samples.values()].some((values) => values.length > 0)) cache.set(key, samples);
    });
  }
  return {
    ...catalog,
    tables: catalog.tables.map((table) => {
      const samples = found.get(table);
      if (!samples || samples.size === 0) return table;
      return {
        ...table,
        columns: table.columns.map((column) => {
          const values = samples.get(column.name);
          return values ? { ...column, sampleValues: values } : column;
        }),
      };
    }),
  };
}

/**
 * The cache key of each table whose rows do not depend on the session (row-level security not active for the asking
 * role): the role (`current_user`, `session_user`), the server and database, the table and its columns. One
 * statement; tables that went away since the index (no `to_regclass`) or under row-level security get none.
 */
async function cacheKeys(
  query: (sql: string) => Promise<QueryResult>,
  tables: readonly TableInfo[],
): Promise<Map<TableInfo, string>> {
  const active = tables.map((table) => {
    const name = escapedStringLiteral(`${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`);
    return `COALESCE(pg_catalog.row_security_active(pg_catalog.to_regclass(${name})), true)`;
  });
  const identity = await query(
    "SELECT current_user::pg_catalog.text, session_user::pg_catalog.text, pg_catalog.current_database()::pg_catalog.text, " +
      "pg_catalog.concat(pg_catalog.inet_server_addr(), ':', pg_catalog.inet_server_port(), '@', pg_catalog.pg_postmaster_start_time()), " +
      `pg_catalog.array_to_string(ARRAY[${active.join(", ")}]::pg_catalog.text[], ',')`,
  );
  const [currentUser, sessionUser, database, server, flags] = identity.rows[0] ?? [];
  const keys = new Map<TableInfo, string>();
  if (!currentUser || !sessionUser || !database || server === undefined || !flags) return keys;
  const rowSecurity = flags.split(",");
  tables.forEach((table, position) => {
    if (rowSecurity[position] !== "false") return;
    const columns = table.columns.map((column) => column.name);
    keys.set(table, JSON.stringify([currentUser, sessionUser, server, database, tableKey(table), columns]));
  });
  return keys;
}
