import { createPgExecutor, ensureDataSource, indexCatalog, type MetadataStore } from "@nlq/adapters";
import pg from "pg";

/**
 * `nlq index` of the demo database, as `nlq start` runs it in the background once the proxy is up (issue 18, item 3):
 * the catalog, the example values and the value index, so every demo question gets value retrieval from the index.
 * Tables indexed before and unchanged are skipped (fingerprints), so a restart costs little. Resolves with the counts;
 * `abortSignal` (the launcher stopping) ends it between tables.
 */
export async function indexDemoDatabase(
  url: string,
  store: MetadataStore,
  abortSignal?: AbortSignal,
): Promise<{ readonly tables: number; readonly indexed: number; readonly seconds: number }> {
  const started = performance.now();
  const dataSource = await ensureDataSource(store.database, { url });
  const client = new pg.Client({ connectionString: url, application_name: "nlq-start-index-demo" });
  await client.connect();
  try {
    const result = await indexCatalog({
      executor: createPgExecutor(client, { name: "nlq-start-index-demo" }),
      database: store.database,
      dataSourceId: dataSource.id,
      ...(abortSignal ? { abortSignal } : {}),
    });
    return { tables: result.tables, indexed: result.indexed, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end().catch(() => undefined);
  }
}
