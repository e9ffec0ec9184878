import {
  EMBEDDED_METADATA_DATABASE,
  type EmbeddedPostgres,
  ensureDatabase,
  ensurePrivateDatabase,
  redactUrl,
  type ServerPassword,
  startEmbeddedPostgres,
} from "@nlq/adapters";
import pg from "pg";

/** Name of the demo database in the embedded PostgreSQL. */
export const DEMO_DATABASE = "demo";

/** The embedded PostgreSQL of `nlq start`: one server, the demo database and the metadata store's database. */
export interface EmbeddedDatabase {
  /** The data directory (`$NLQ_HOME/.nlq/postgres`). */
  readonly directory: string;
  readonly port: number;
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/demo`; undefined when the demo is not wanted (DATABASE_URL is set). */
  readonly demoUrl: string | undefined;
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/nlq_metadata`. */
  readonly metadataUrl: string;
  /** The superuser's generated password and its file (`$NLQ_HOME/.nlq/postgres.pgpass`). */
  readonly password: ServerPassword;
  /** True when this start loaded the demo data (first start on this directory). */
  readonly loadedDemoData: boolean;
  /**
   * Leaves the server: fast shutdown (a checkpoint: nothing is lost) unless another nlq process with this NLQ_HOME
   * still uses it, which then stops it when it leaves. Idempotent.
   */
  close(): Promise<void>;
}

export interface StartEmbeddedDatabaseOptions {
  /** Data directory (`$NLQ_HOME/.nlq/postgres`). Created (initdb) on first start. */
  readonly directory: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Directories below this one may get `o+x` so the `postgres` user (when nlq runs as root) reaches its data. */
  readonly grantBelow: string;
  /** Create and load the demo database (false when DATABASE_URL names the user's own). */
  readonly demo: boolean;
  /** Names of the demo tables: when none exists in `demo`, the demo data is loaded. */
  readonly demoTableNames: readonly string[];
  /** Loads the demo data into the database at the URL (core's `loadDemoData({ url })`, one transaction). */
  readonly loadDemoData: (url: string) => Promise<unknown>;
  /** Progress lines for the user. */
  readonly log: (line: string) => void;
}

/** Starts the embedded PostgreSQL (refusing one another live nlq process runs), with its databases. */
export async function startEmbeddedDatabase(options: StartEmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const started = Date.now();
  const server = await startEmbeddedPostgres({
    directory: options.directory,
    port: options.port,
    purpose: "nlq start",
    whenRunning: "refuse",
    grantBelow: options.grantBelow,
    log: options.log,
  });
  try {
    options.log(
      `embedded PostgreSQL ${server.initialised ? "created and started" : "started"} on port ${server.port} ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await ensurePrivateDatabase(server.url("postgres"), EMBEDDED_METADATA_DATABASE);
    let loadedDemoData = false;
    if (options.demo) {
      await ensureDatabase(server.url("postgres"), DEMO_DATABASE);
      loadedDemoData = await ensureDemoData(server, options);
    }
    return {
      directory: server.directory,
      port: server.port,
      demoUrl: options.demo ? server.url(DEMO_DATABASE) : undefined,
      metadataUrl: server.url(EMBEDDED_METADATA_DATABASE),
      password: server.password,
      loadedDemoData,
      close: () => server.stop(),
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }
}

async function ensureDemoData(server: EmbeddedPostgres, options: StartEmbeddedDatabaseOptions): Promise<boolean> {
  const url = server.url(DEMO_DATABASE);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let present: number;
  try {
    const existing = await client.query(
      "select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace " +
        "where n.nspname = 'public' and c.relname = any($1::text[])",
      [options.demoTableNames],
    );
    present = existing.rows.length;
  } finally {
    await client.end();
  }
  if (present > 0) return false;
  options.log(`loading the demo database into ${redactUrl(url)} (first start only)…`);
  const started = Date.now();
  await options.loadDemoData(url);
  options.log(`demo database loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}
