import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { QueryExecutor, VectorStore } from "@nlq/engine";
import {
  type Catalog,
  catalogCollectionName,
  fetchSampleValues,
  introspectCatalog,
  isStoredTable,
  runReadOnly,
  tableKey,
  VectorDimensionError,
  valueReadPolicy,
} from "@nlq/engine";
import type { ExternalDescriptions } from "../catalog-files/external-descriptions";
import { mergeExternalDescriptions } from "../catalog-files/merge-external-descriptions";
import { embeddingModelIdentity } from "../embedding/pipeline-embedding-model";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { indexDatabaseValues } from "../value-index/index-database-values";
import { dataSourceValueIndexLease, publishDataSourceValueIndex } from "../value-index/served-value-index";
import { ValueIndexStore } from "../value-index/value-index-store";
import { embedTableContext, ensureContextCollection } from "./catalog-context-vectors";
import { CatalogIndexStore } from "./catalog-index-store";
import { tableFingerprint } from "./table-fingerprint";
import { countRowsExactly, fetchTableStatistics } from "./table-statistics";

/** Progress of `indexCatalog`, reported after each table. */
export interface CatalogIndexProgress {
  /** Tables handled so far (indexed or unchanged). */
  readonly done: number;
  readonly total: number;
  /** The table just handled (`schema.table`). */
  readonly table: string;
  readonly status: "indexed" | "unchanged";
}

export interface IndexCatalogOptions {
  /** Session on the target database (an indexing role that can read what should be indexed). */
  readonly executor: QueryExecutor;
  readonly database: MetadataDatabase;
  readonly dataSourceId: string;
  /** Only these schemas. Default: every schema the role can read. */
  readonly schemas?: readonly string[];
  /** Descriptions from catalog files (`readCatalogFiles`); `COMMENT ON` wins. Default none. */
  readonly descriptions?: ExternalDescriptions;
  /** Where table/column description embeddings go (collection `catalogCollectionName(dataSourceId)`). Default: none. */
  readonly vectorStore?: VectorStore;
  /** Embedding model of the descriptions; required with `vectorStore`. */
  readonly embeddingModel?: EmbeddingModelV3;
  /** Build the value index of changed tables (value-index store in the metadata database). Default true. */
  readonly values?: boolean;
  /** Tables with fewer estimated rows than this get an exact `count(*)`. Default 10,000. */
  readonly exactCountBelow?: number;
  /** Re-index every table, ignoring fingerprints. Default false. */
  readonly force?: boolean;
  readonly onProgress?: (progress: CatalogIndexProgress) => void;
  readonly abortSignal?: AbortSignal;
}

export interface IndexCatalogResult {
  readonly tables: number;
  readonly columns: number;
  readonly indexed: number;
  readonly unchanged: number;
  readonly removed: number;
  /** Tables whose only change was the embedder: their description vectors were made again, nothing else. */
  readonly reembedded: number;
}

/**
 * Builds or refreshes a data source's catalog index: introspection (+ catalog files), statistics, then for each table
 * whose fingerprint changed: sample values, exact count for small tables, description embeddings, value index, and the
 * table's rows — the table is committed last, so an interrupted run keeps every table already done and re-does only
 * the one in flight. Tables that disappeared are removed everywhere. At the end the value index's columns are published
 * as the generation the metadata store serves (`publishDataSourceValueIndex`).
 */
export async function indexCatalog(options: IndexCatalogOptions): Promise<IndexCatalogResult> {
  // The value index's lease is held for the whole run (waiting for a process rebuilding it now), so that processes
  // answering questions meanwhile keep serving the published generation instead of rebuilding from half-written columns.
  const lease =
    options.values === false
      ? undefined
      : await dataSourceValueIndexLease(options.database, options.dataSourceId, { wait: true });
  try {
    const result = await indexCatalogTables(options);
    // The stored columns become the generation every process serves, published in one transaction; kept as it is when
    // no column changed.
    if (lease) await publishDataSourceValueIndex(options.database, options.dataSourceId, { lease });
    return result;
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

async function indexCatalogTables(options: IndexCatalogOptions): Promise<IndexCatalogResult> {
  const scope = { session: options.executor, statementTimeoutMilliseconds: 600_000, abortSignal: options.abortSignal };
  // The policy (under the indexing role) decides which tables nlq may read values of: one whose reading runs code
  // another role planted (a row-level security policy, a column type's cast) gets no samples, count or values.
  const { catalog, statistics, policy } = await runReadOnly(scope, async (query) => ({
    catalog: await introspectCatalog(query),
    statistics: await fetchTableStatistics(query),
    policy: await valueReadPolicy(query),
  }));
  const wantedSchemas = options.schemas && options.schemas.length > 0 ? new Set(options.schemas) : undefined;
  const merged = mergeExternalDescriptions(
    { tables: catalog.tables.filter((table) => !wantedSchemas || wantedSchemas.has(table.schema)) },
    options.descriptions ?? { tables: [], columns: [] },
  );
  const store = new CatalogIndexStore(options.database);
  const valueStore = new ValueIndexStore(options.database);
  const stored = new Map(
    (await store.fingerprints(options.dataSourceId)).map((row) => [`${row.schema}.${row.name}`, row]),
  );
  const collection = catalogCollectionName(options.dataSourceId);
  const exactBelow = options.exactCountBelow ?? 10_000;
  let indexed = 0;
  let unchanged = 0;
  let reembedded = 0;
  let collectionReady = false;
  const embedder =
    options.vectorStore && options.embeddingModel ? embeddingModelIdentity(options.embeddingModel) : undefined;
  if (
    embedder !== undefined &&
    [...stored.values()].some((row) => row.embeddingModel !== null && row.embeddingModel !== embedder)
  ) {
    // Another embedder made (some of) the stored vectors: their dimensions and space differ, so the collection starts
    // again and every table is embedded anew (an index written before embedders were recorded counts as unknown).
    await options.vectorStore!.dropCollection({ collection }).catch(() => undefined);
    for (const [key, row] of stored) stored.set(key, { ...row, embeddingModel: null });
  }
  const ensureCollection = async () => {
    if (collectionReady || !options.vectorStore || !options.embeddingModel) return;
    collectionReady = true;
    try {
      await ensureContextCollection(options.vectorStore, options.embeddingModel, collection);
    } catch (error) {
      if (!VectorDimensionError.isInstance(error)) throw error;
      // Vectors of an unrecorded embedder (an index from before embedders were recorded): every table's embedder
      // is unknown, so each is embedded anew into a collection of the current dimensions.
      await options.vectorStore.dropCollection({ collection });
      await ensureContextCollection(options.vectorStore, options.embeddingModel, collection);
    }
  };

  const present = new Set(merged.tables.map(tableKey));
  // With a schema filter, tables of other schemas are out of scope, not removed.
  const removed = [...stored.values()].filter(
    (row) => !present.has(`${row.schema}.${row.name}`) && (!wantedSchemas || wantedSchemas.has(row.schema)),
  );
  const storedValueColumns = new Map<string, string[]>();
  for (const stored of options.values === false ? [] : await valueStore.listColumns(options.dataSourceId)) {
    const key = `${stored.column.schema}.${stored.column.table}`;
    storedValueColumns.set(key, [...(storedValueColumns.get(key) ?? []), stored.column.column]);
  }
  const deleteValueColumns = async (schema: string, table: string, keep: ReadonlySet<string>) => {
    for (const column of storedValueColumns.get(`${schema}.${table}`) ?? [])
      if (!keep.has(column)) await valueStore.deleteColumn(options.dataSourceId, { schema, table, column });
  };
  for (const row of removed) {
    if (options.vectorStore) await deletePointsQuietly(options.vectorStore, collection, `${row.schema}.${row.name}`);
    await deleteValueColumns(row.schema, row.name, new Set());
  }
  await store.deleteTables(options.dataSourceId, removed);

  for (const [position, table] of merged.tables.entries()) {
    options.abortSignal?.throwIfAborted();
    const key = tableKey(table);
    const tableStatistics = statistics.get(key);
    const fingerprint = tableFingerprint(table, tableStatistics?.rowEstimate ?? null);
    const previous = stored.get(key);
    if (!options.force && previous?.fingerprint === fingerprint) {
      if (embedder !== undefined && previous.embeddingModel !== embedder) {
        // Same table, another embedder: its vectors are made again (their dimensions may differ too), nothing else.
        await ensureCollection();
        await embedTableContext(options.vectorStore!, options.embeddingModel!, collection, table);
        await store.setEmbeddingModel(options.dataSourceId, table, embedder);
        reembedded += 1;
      } else unchanged += 1;
      options.onProgress?.({ done: position + 1, total: merged.tables.length, table: key, status: "unchanged" });
      continue;
    }
    const estimate = tableStatistics?.rowEstimate ?? null;
    const { sampled, exactRows } = await runReadOnly(scope, async (query) => {
      const [withSamples] = (await fetchSampleValues(query, { tables: [table] }, { policy })).tables;
      const countable =
        table.kind !== "view" && table.kind !== "foreign-table" && (estimate === null || estimate < exactBelow);
      return {
        sampled: withSamples ?? table,
        exactRows: countable ? await countRowsExactly(query, table, undefined, policy) : null,
      };
    });
    if (options.vectorStore && options.embeddingModel) {
      await ensureCollection();
      await embedTableContext(options.vectorStore, options.embeddingModel, collection, sampled);
    }
    if (options.values !== false) {
      // Values only from stored rows (ordinary and partitioned tables): a view's body would run per question when
      // its values are probed on the asking session (issue 17).
      const valueColumns = isStoredTable(table) ? table.columns : [];
      await deleteValueColumns(table.schema, table.name, new Set(valueColumns.map((column) => column.name)));
      const primary = new Set(table.primaryKey);
      const foreign = new Set(table.foreignKeys.flatMap((foreignKey) => foreignKey.columns));
      await runReadOnly(scope, (query) =>
        indexDatabaseValues({
          executor: { name: "read-only", query: ({ sql }) => query(sql) },
          columns: valueColumns.map((column) => ({
            schema: table.schema,
            table: table.name,
            column: column.name,
            dataType: column.dataType,
            isEnum: column.enumValues !== undefined,
            isPrimaryKey: primary.has(column.name),
            isForeignKey: foreign.has(column.name),
          })),
          store: valueStore,
          dataSourceId: options.dataSourceId,
          abortSignal: options.abortSignal,
          policy,
        }),
      );
    }
    await store.saveTable(options.dataSourceId, {
      table: sampled,
      fingerprint,
      rowCount: exactRows ?? estimate,
      rowCountExact: exactRows !== null,
      columnStatistics: tableStatistics?.columns ?? new Map(),
      embeddingModel: embedder ?? null,
    });
    indexed += 1;
    options.onProgress?.({ done: position + 1, total: merged.tables.length, table: key, status: "indexed" });
  }
  return {
    tables: merged.tables.length,
    columns: merged.tables.reduce((total, table) => total + table.columns.length, 0),
    indexed,
    unchanged,
    removed: removed.length,
    reembedded,
  };
}

async function deletePointsQuietly(vectorStore: VectorStore, collection: string, table: string): Promise<void> {
  try {
    await vectorStore.delete({ collection, filter: { table } });
  } catch {
    // no collection yet: nothing to delete
  }
}

export type { Catalog };
