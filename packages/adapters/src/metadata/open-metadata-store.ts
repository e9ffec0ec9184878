import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { ConfigurationError } from "@nlq/engine";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePostgres } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { QuestionAuditTrail } from "../audit/question-audit-trail";
import type { ServiceSettings } from "../config/service-settings";
import { startEmbeddedPostgres } from "../embedded-postgres/embedded-postgres-server";
import { acquireDirectoryLock, type DirectoryLock } from "./directory-lock";
import { LlmCacheKeyExposedError, llmCacheIntegrityKey } from "./llm-cache-integrity";
import { MetadataLlmCache, type MetadataLlmCacheOptions } from "./llm-cache-store";
import type { MetadataDatabase } from "./metadata-database";
import { MetadataStoreError } from "./metadata-store-error";
import { metadataMigrationsFolder } from "./migrations-folder";
import { nlqStateDirectory } from "./nlq-home";
import { ensurePrivateDatabase } from "./private-database";
import { MetadataQueryLog } from "./query-log-store";
import * as metadataSchema from "./schema";

export interface OpenMetadataStoreOptions {
  /**
   * PostgreSQL URL of the store (`postgres://` or `postgresql://`, node-postgres driver).
   * Default: `settings.metadataUrl` (`NLQ_METADATA_URL`); when neither (nor `directory`) is set, the `nlq_metadata`
   * database of the embedded PostgreSQL in `<settings.home>/.nlq/postgres`: the one `nlq start` runs, or one this
   * process starts for as long as the store is open (the home defaults to the current directory).
   */
  readonly url?: string;
  /**
   * An in-process PGlite store instead (no URL given): `memory://` keeps it in memory (tests), a path keeps
   * files there (one process at a time). Default: none (the embedded PostgreSQL above).
   */
  readonly directory?: string;
  /** Apply pending migrations at open (default true). */
  readonly migrate?: boolean;
  /**
   * The store's service settings (`loadServiceSettings(environment)`): `metadataUrl` (`NLQ_METADATA_URL`), `home`
   * (`NLQ_HOME`), `migrationsDirectory` (`NLQ_MIGRATIONS_DIR`), `modelCacheTimeToLiveSeconds`
   * (`NLQ_RESPONSE_CACHE_TTL`, default 7 days). Default: none of them set.
   */
  readonly settings?: Partial<
    Pick<ServiceSettings, "metadataUrl" | "home" | "migrationsDirectory" | "modelCacheTimeToLiveSeconds">
  >;
  /**
   * Told, once per process and key file, when the store works degraded: an exposed LLM cache key
   * (`LlmCacheKeyExposedError`) is not used, so cached model responses stop persisting across processes until it is
   * fixed. Default: `console.error` (stderr), as the audit trail reports its write failures.
   */
  readonly warn?: (message: string) => void;
}

export interface MetadataStore {
  /** `pglite` (in-process, `directory`) or `postgres` (node-postgres pool: a URL or the embedded PostgreSQL). */
  readonly driver: "pglite" | "postgres";
  /** Where the store lives: the URL without its password, or the PGlite directory. */
  readonly location: string;
  /** drizzle database over the tables in `metadata/schema/`. */
  readonly database: MetadataDatabase;
  /** The question log; pass it as `queryLog` to `answerQuestion`. */
  readonly queryLog: MetadataQueryLog;
  /** Cache of language-model responses. */
  readonly llmCache: MetadataLlmCache;
  /** Who asked what from where (`question_audit`); `close` waits for its queue. */
  readonly auditTrail: QuestionAuditTrail;
  /** Flushes and closes the store (PGlite writes its files; the pool ends). Idempotent. */
  close(): Promise<void>;
}

/** The response cache's signing key and time to live, handed to the stores of every driver. */
interface CacheSettings extends MetadataLlmCacheOptions {
  readonly key: Buffer;
}

/** Key of the advisory lock that serialises concurrent migrations on a shared PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_411_232_019;

/** Name of the metadata store's database in the embedded PostgreSQL. */
export const EMBEDDED_METADATA_DATABASE = "nlq_metadata";

/**
 * Opens the metadata store and migrates it: PostgreSQL at the URL (or `NLQ_METADATA_URL`), else PGlite in
 * `directory` when given, else the embedded PostgreSQL's `nlq_metadata` database.
 */
export async function openMetadataStore(options: OpenMetadataStoreOptions = {}): Promise<MetadataStore> {
  const settings = options.settings ?? {};
  const url = options.url ?? settings.metadataUrl;
  const migrationsFolder =
    options.migrate === false ? undefined : metadataMigrationsFolder(settings.migrationsDirectory);
  // The key that signs `llm_cache` rows lives beside the embedded PostgreSQL's files, in `<home>/.nlq`; an
  // in-memory store (tests) gets a key of its own.
  const key = options.directory?.startsWith("memory://")
    ? randomBytes(32)
    : integrityKeyOrEphemeral(nlqStateDirectory(settings.home), options.warn ?? warnOnStandardError);
  const cacheSettings: CacheSettings = {
    key,
    ...(settings.modelCacheTimeToLiveSeconds === undefined
      ? {}
      : { timeToLiveSeconds: settings.modelCacheTimeToLiveSeconds }),
  };
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ConfigurationError(
        `NLQ_METADATA_URL must be a postgres:// or postgresql:// URL, got ${redactUrl(url)}`,
      );
    }
    return openPostgresStore(url, migrationsFolder, cacheSettings);
  }
  if (options.directory !== undefined) return openPgliteStore(options.directory, migrationsFolder, cacheSettings);
  return openEmbeddedStore(settings.home, migrationsFolder, cacheSettings);
}

/** The `nlq_metadata` database of the embedded PostgreSQL: attached to `nlq start`'s, or started until close. */
async function openEmbeddedStore(
  home: string | undefined,
  migrationsFolder: string | undefined,
  cacheSettings: CacheSettings,
): Promise<MetadataStore> {
  const stateDirectory = nlqStateDirectory(home);
  const server = await startEmbeddedPostgres({
    directory: path.join(stateDirectory, "postgres"),
    port: 0,
    // The subcommand only: the rest of the command line may hold a URL with a password.
    purpose: `nlq ${process.argv[2] ?? ""}`.trim(),
    grantBelow: path.dirname(stateDirectory),
  });
  try {
    await ensurePrivateDatabase(server.url("postgres"), EMBEDDED_METADATA_DATABASE);
    const store = await openPostgresStore(server.url(EMBEDDED_METADATA_DATABASE), migrationsFolder, cacheSettings);
    return {
      ...store,
      async close() {
        try {
          await store.close();
        } finally {
          await server.stop();
        }
      },
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }
}

async function openPgliteStore(
  directory: string,
  migrationsFolder: string | undefined,
  cacheSettings: CacheSettings,
): Promise<MetadataStore> {
  const inMemory = directory.startsWith("memory://");
  let lock: DirectoryLock | undefined;
  if (!inMemory) {
    mkdirSync(directory, { recursive: true });
    lock = acquireDirectoryLock(path.resolve(directory), `nlq ${process.argv.slice(2).join(" ")}`.trim());
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(inMemory ? directory : path.resolve(directory));
  } catch (error) {
    lock?.release();
    throw new MetadataStoreError(`cannot open the metadata store in ${directory}`, { driver: "pglite", cause: error });
  }
  const database = drizzlePglite({ client: pglite, schema: metadataSchema });
  try {
    if (migrationsFolder !== undefined) await migratePglite(database, { migrationsFolder });
  } catch (error) {
    await pglite.close();
    lock?.release();
    throw new MetadataStoreError(`cannot migrate the metadata store in ${directory}`, {
      driver: "pglite",
      cause: error,
    });
  }
  let closed = false;
  const stores = storesOver(database, cacheSettings);
  return {
    driver: "pglite",
    location: directory,
    ...stores,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await stores.auditTrail.flush();
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgresStore(
  url: string,
  migrationsFolder: string | undefined,
  cacheSettings: CacheSettings,
): Promise<MetadataStore> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", () => {});
  const database = drizzleNodePostgres({ client: pool, schema: metadataSchema });
  try {
    if (migrationsFolder !== undefined) await migrateWithLock(pool, migrationsFolder);
  } catch (error) {
    await pool.end();
    throw new MetadataStoreError(`cannot open or migrate the metadata store at ${redactUrl(url)}`, {
      driver: "postgres",
      cause: error,
    });
  }
  let closed = false;
  const stores = storesOver(database, cacheSettings);
  return {
    driver: "postgres",
    location: redactUrl(url),
    ...stores,
    async close() {
      if (closed) return;
      closed = true;
      await stores.auditTrail.flush();
      await pool.end();
    },
  };
}

/** The drizzle database of either driver, with the stores built on it. */
function storesOver(
  database: unknown,
  cacheSettings: CacheSettings,
): Pick<MetadataStore, "database" | "queryLog" | "llmCache" | "auditTrail"> {
  const metadataDatabase = database as MetadataDatabase;
  return {
    database: metadataDatabase,
    queryLog: new MetadataQueryLog(metadataDatabase),
    llmCache: new MetadataLlmCache(metadataDatabase, cacheSettings.key, cacheSettings),
    auditTrail: new QuestionAuditTrail(metadataDatabase),
  };
}

/** Several processes (proxies, the web app) may open one PostgreSQL store at once: migrate one at a time. */
async function migrateWithLock(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePostgres(drizzleNodePostgres({ client }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Key files whose exposure this process already reported: one warning each, however many stores it opens. */
const reportedExposedKeys = new Set<string>();

function warnOnStandardError(message: string): void {
  console.error(`nlq: ${message}`);
}

/**
 * The LLM cache's signing key of the home; where it cannot be written (a read-only directory, a container's `/`), a
 * key of this process only: rows it signs are still trusted by it alone, so the cache stays safe and works within
 * the process. An exposed key file (`LlmCacheKeyExposedError`) gets the same fallback, and `warn` says so once: the
 * user would otherwise never learn why cached responses stop being reused by the next process.
 */
function integrityKeyOrEphemeral(stateDirectory: string, warn: (message: string) => void): Buffer {
  try {
    return llmCacheIntegrityKey(stateDirectory);
  } catch (error) {
    if (LlmCacheKeyExposedError.isInstance(error) && !reportedExposedKeys.has(error.file)) {
      reportedExposedKeys.add(error.file);
      warn(
        `${error.message}. Until then cached model responses are kept for this process only. If nobody else can have ` +
          `read it, making it yours and private also works: chown $(id -un) ${error.file} && chmod 600 ${error.file}`,
      );
    }
    return randomBytes(32);
  }
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}
