import type { QueryExecutor, TransactionStatus } from "@nlq/engine";
import {
  type Catalog,
  columnKey,
  fetchSampleValues,
  introspectCatalog,
  keepVisibleSampleValues,
  readableColumnKeys,
  runReadOnly,
  sampleValueProbes,
  tableKey,
  visibleValues,
  withoutSampleValues,
} from "@nlq/engine";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { CatalogIndexStore } from "./catalog-index-store";
import { type LiveSampleValueCache, readLiveSampleValues } from "./live-sample-values";

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
 * session's role may read (`restrictToRole`: columns it may select, examples it can see in a row), or — when there is no store, no data source or
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

/** What `restrictToRole` does with the stored examples. */
export type SampleValueTreatment = "verify" | "omit" | "live";

/** How `restrictToRole` treats the examples (`sampleValues`) stored by `nlq index`, which the indexing role read. */
export interface RestrictToRoleOptions
  extends Pick<LoadCatalogOptions, "session" | "transactionStatus" | "statementTimeoutMilliseconds" | "abortSignal"> {
  /**
   * `verify`: keep only the examples the asking role can see in a row under its own privileges and row-level security
   * (`visibleValues`, one statement per table); `omit`: drop them all (a schema selector checks the few it shows
   * later); `live`: replace them by examples read now under the asking role (`fetchSampleValues`: the first rows of
   * each table, as `nlq index` read them; one `LIMIT 50` read per table instead of a probe per example); or a function
   * choosing one from the catalog restricted to the role's columns. Default `verify`.
   */
  readonly sampleValues?: SampleValueTreatment | ((readable: Catalog) => SampleValueTreatment);
  /**
   * With `verify`, examples are checked for this many tables at most (one statement each); later tables lose theirs.
   * Default: every table (the catalog is rendered whole, so the check costs as much as the prompt is long).
   */
  readonly maxSampleTables?: number;
  /**
   * With `live`, where the examples read under the asking role are kept a short while (`LiveSampleValueCache`: per
   * role, table and readable columns; tables under row-level security, and sessions in a transaction, always read).
   * The role's privileges are still checked on every call. Default: none (every table read on every call).
   */
  readonly liveSampleValueCache?: LiveSampleValueCache;
}

/**
 * The indexed catalog restricted to what the asking session's role may read: columns by `has_column_privilege` (one
 * statement), examples by whether the role can see a row holding them (RLS included), all in one read-only scope on
 * the asking session.
 */
export async function restrictToRole(indexed: Catalog, options: RestrictToRoleOptions): Promise<Catalog> {
  const columns = indexed.tables.flatMap((table) =>
    table.columns.map((column) => ({ schema: table.schema, table: table.name, column: column.name })),
  );
  return runReadOnly(catalogScope(options), async (query) => {
    const readable = filterReadable(
      indexed,
      await readableColumnKeys({ executor: { name: "read-only", query: ({ sql }) => query(sql) }, columns }),
    );
    const treatment =
      typeof options.sampleValues === "function" ? options.sampleValues(readable) : (options.sampleValues ?? "verify");
    if (treatment === "omit") return withoutSampleValues(readable);
    if (treatment === "live") {
      return readLiveSampleValues(query, withoutSampleValues(readable), {
        cache: options.liveSampleValueCache,
        transactionStatus: options.transactionStatus,
      });
    }
    const probes = sampleValueProbes(readable, { maxTables: options.maxSampleTables ?? Number.POSITIVE_INFINITY });
    return keepVisibleSampleValues(readable, await visibleValues(query, probes, { abortSignal: options.abortSignal }));
  });
}

function catalogScope(options: RestrictToRoleOptions) {
  return {
    session: options.session,
    transactionStatus: options.transactionStatus ?? "idle",
    statementTimeoutMilliseconds: options.statementTimeoutMilliseconds ?? 30_000,
    abortSignal: options.abortSignal,
  };
}
