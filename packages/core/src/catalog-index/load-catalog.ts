import { type Catalog, tableKey } from "../catalog/catalog-types";
import { introspectCatalog } from "../catalog/introspect-catalog";
import type { QueryExecutor, TransactionStatus } from "../database/query-executor";
import { runReadOnly } from "../database/read-only-session";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { readableColumnKeys } from "../retrieval/values/readable-columns";
import { columnKey } from "../retrieval/values/value-column";
import { fetchSampleValues } from "../schema/sample-values";
import { CatalogIndexStore } from "./catalog-index-store";

export interface LoadCatalogOptions {
  /** The metadata store (anything with its drizzle `database`); absent → live introspection. */
  readonly store?: { readonly database: MetadataDatabase };
  /** The session's data source (`ensureDataSource`); absent → live introspection. */
  readonly dataSource?: { readonly id: string };
  /** The asking user's session: privileges are checked on it, and introspection runs on it. */
  readonly session: QueryExecutor;
  /** The session's transaction state. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** Statement timeout of the catalog queries, in milliseconds. Default 30,000. */
  readonly statementTimeoutMilliseconds?: number;
  readonly abortSignal?: AbortSignal;
}

export interface LoadedCatalog {
  readonly catalog: Catalog;
  /** `index` when the indexed catalog was used, `introspection` otherwise. */
  readonly source: "index" | "introspection";
}

/** Keeps only what the readable column keys allow: columns, tables with a readable column, complete keys. */
export function filterReadable(catalog: Catalog, readable: ReadonlySet<string>): Catalog {
  const isReadable = (schema: string, table: string, column: string) =>
    readable.has(columnKey({ schema, table, column }));
  const tables = catalog.tables
    .map((table) => ({
      ...table,
      columns: table.columns.filter((column) => isReadable(table.schema, table.name, column.name)),
    }))
    .filter((table) => table.columns.length > 0);
  const present = new Set(tables.map(tableKey));
  return {
    ...catalog,
    tables: tables.map((table) => ({
      ...table,
      primaryKey: table.primaryKey.every((column) => isReadable(table.schema, table.name, column))
        ? table.primaryKey
        : [],
      foreignKeys: table.foreignKeys.filter(
        (key) =>
          present.has(`${key.referencedSchema}.${key.referencedTable}`) &&
          key.columns.every((column) => isReadable(table.schema, table.name, column)) &&
          key.referencedColumns.every((column) => isReadable(key.referencedSchema, key.referencedTable, column)),
      ),
    })),
  };
}

/**
 * The catalog for one question: the data source's indexed catalog (from `nlq index`) restricted to what the asking
 * session's role may read (`has_column_privilege`, one statement), or — when there is no store, no data source or
 * nothing indexed — live introspection with sample values, as `answerQuestion` does by itself.
 */
export async function loadCatalog(options: LoadCatalogOptions): Promise<LoadedCatalog> {
  if (options.store && options.dataSource) {
    const indexed = await new CatalogIndexStore(options.store.database).loadCatalog(options.dataSource.id);
    if (indexed.tables.length > 0) return { catalog: await restrictToRole(indexed, options), source: "index" };
  }
  const catalog = await runReadOnly(catalogScope(options), async (query) =>
    fetchSampleValues(query, await introspectCatalog(query)),
  );
  return { catalog, source: "introspection" };
}

/** The indexed catalog restricted to what the asking session's role may read (`has_column_privilege`, one statement). */
export async function restrictToRole(
  indexed: Catalog,
  options: Pick<LoadCatalogOptions, "session" | "transactionStatus" | "statementTimeoutMilliseconds" | "abortSignal">,
): Promise<Catalog> {
  const columns = indexed.tables.flatMap((table) =>
    table.columns.map((column) => ({ schema: table.schema, table: table.name, column: column.name })),
  );
  const readable = await runReadOnly(catalogScope(options), (query) =>
    readableColumnKeys({ executor: { name: "read-only", query: ({ sql }) => query(sql) }, columns }),
  );
  return filterReadable(indexed, readable);
}

function catalogScope(
  options: Pick<LoadCatalogOptions, "session" | "transactionStatus" | "statementTimeoutMilliseconds" | "abortSignal">,
) {
  return {
    session: options.session,
    transactionStatus: options.transactionStatus ?? "idle",
    statementTimeoutMilliseconds: options.statementTimeoutMilliseconds ?? 30_000,
    abortSignal: options.abortSignal,
  };
}
