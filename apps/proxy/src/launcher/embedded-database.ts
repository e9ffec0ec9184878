import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { acquireDirectoryLock } from "@nlq/core";
import { LauncherError } from "./launcher-errors";
import { type ServedPglite, servePglite } from "./served-pglite";

/** The embedded PostgreSQL (PGlite) with nlq's demo database, served over TCP. */
export interface EmbeddedDatabase {
  readonly directory: string;
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** True when this start loaded the demo data (first start on this directory). */
  readonly loadedDemoData: boolean;
  /** Stops serving, then closes PGlite (which writes everything to disk). Idempotent. */
  close(): Promise<void>;
}

export interface StartEmbeddedDatabaseOptions {
  /** PGlite data directory (`$NLQ_HOME/.nlq/demo`). Created if missing. */
  readonly directory: string;
  readonly host: string;
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Names of the demo tables: when none exists, the demo data is loaded. */
  readonly demoTableNames: readonly string[];
  /** Loads the demo data into the instance (core's `loadDemoData({ pglite })`, one transaction). */
  readonly loadDemoData: (pglite: PGlite) => Promise<unknown>;
  /** Progress lines for the user. */
  readonly log: (line: string) => void;
}

/** Opens (or creates) the embedded database, loads the demo data on first start, and serves it. */
export async function startEmbeddedDatabase(options: StartEmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  mkdirSync(options.directory, { recursive: true });
  const lock = acquireDirectoryLock(options.directory, "nlq start, embedded database");
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(options.directory);
  } catch (error) {
    lock.release();
    throw new LauncherError(`cannot open the embedded database in ${options.directory}`, { cause: error });
  }
  let served: ServedPglite | undefined;
  try {
    const loadedDemoData = await ensureDemoData(pglite, options);
    served = await servePglite(pglite, { host: options.host, port: options.port, variable: "NLQ_EMBEDDED_PORT" });
    const servedDatabase = served;
    let closed = false;
    return {
      directory: options.directory,
      url: servedDatabase.url,
      port: servedDatabase.port,
      loadedDemoData,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await servedDatabase.stop();
        } finally {
          await pglite.close();
          lock.release();
        }
      },
    };
  } catch (error) {
    await served?.stop().catch(() => undefined);
    await pglite.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

async function ensureDemoData(pglite: PGlite, options: StartEmbeddedDatabaseOptions): Promise<boolean> {
  const existing = await pglite.query<{ relname: string }>(
    "select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace " +
      "where n.nspname = 'public' and c.relname = any($1::text[])",
    [options.demoTableNames],
  );
  if (existing.rows.length > 0) return false;
  options.log(`loading the demo database into ${options.directory} (first start only)…`);
  const started = Date.now();
  await options.loadDemoData(pglite);
  // Make the load durable now rather than at close, so a crash later cannot lose it.
  await pglite.exec("checkpoint");
  options.log(`demo database loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}
