import path from "node:path";
import {
  type MetadataStore,
  metadataMigrationsFolder,
  openMetadataStore,
  redactUrl,
  runningServer,
} from "@nlq/adapters";
import type { QueryLog } from "@nlq/engine";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "./embedded-database";
import type { LauncherSettings } from "./launcher-settings";
import { assertPortFree } from "./port-check";
import { formatStartupBanner, type StartupSummary } from "./startup-banner";
import { buildWebApp, startWebApp } from "./web-app-process";

/** The proxy as the launcher needs it (adapted from the proxy server's own API by the start command). */
export interface LauncherProxy {
  /** The port actually bound. */
  readonly port: number;
  /** Stops accepting and ends the connections gracefully. */
  close(): Promise<void>;
}

export interface LauncherDependencies {
  /** Names of the demo tables (core's `demoTableNames`): none present → the demo data is loaded. */
  readonly demoTableNames: readonly string[];
  /** Loads the demo data into the embedded database at the URL (core's `loadDemoData({ url })`). */
  readonly loadDemoData: (url: string) => Promise<unknown>;
  /**
   * Starts the proxy in front of `upstream`, logging questions to `queryLog`; `metadataStore` holds the catalog
   * index (`createQuestionAnswerer`) and is the store `queryLog` belongs to.
   */
  readonly startProxy: (options: {
    readonly host: string;
    readonly port: number;
    readonly upstreamHost: string;
    readonly upstreamPort: number;
    readonly queryLog: QueryLog;
    readonly metadataStore: MetadataStore;
  }) => Promise<LauncherProxy>;
  /**
   * Indexes the embedded demo database into the metadata store (`indexDemoDatabase`), run in the background once the
   * proxy is up, so demo questions get value retrieval from the index. Default: none (not indexed).
   */
  readonly indexDemo?: (
    url: string,
    store: MetadataStore,
    abortSignal: AbortSignal,
  ) => Promise<{ readonly tables: number; readonly indexed: number; readonly seconds: number }>;
  /** `NLQ_MODEL` (from the validated settings), for the banner. */
  readonly model: string | undefined;
  /** The user's environment; the web app child inherits it. */
  readonly environment: NodeJS.ProcessEnv;
  /** The web app directory (`apps/web`). */
  readonly webDirectory: string;
  /** The `next` CLI script (tests pass a stand-in). Default: resolved from `webDirectory`. */
  readonly nextBinary?: string;
  /** Where progress lines and the banner go. */
  readonly log: (line: string) => void;
}

/** A running `nlq start`. */
export interface Launcher {
  /** Resolves with what runs once everything listens (the banner is printed then); rejects if a part failed. */
  readonly ready: Promise<StartupSummary>;
  /**
   * Stops everything, in order, losing nothing: the proxy and web app stop accepting and end, the metadata
   * store's pool closes, then the embedded PostgreSQL shuts down (fast shutdown, with a checkpoint) unless another
   * nlq process with this NLQ_HOME still uses it (it stops when the last one leaves). Also aborts a start still in
   * progress. Idempotent.
   */
  stop(): Promise<void>;
}

type Closer = { readonly name: string; readonly close: () => Promise<void> };

export function startLauncher(settings: LauncherSettings, dependencies: LauncherDependencies): Launcher {
  const abortController = new AbortController();
  const closers: Closer[] = [];
  const ready = start(settings, dependencies, closers, abortController.signal);
  let stopping: Promise<void> | undefined;
  return {
    ready,
    stop() {
      stopping ??= (async () => {
        abortController.abort();
        await ready.catch(() => undefined);
        await closeAll(closers, dependencies.log);
      })();
      return stopping;
    },
  };
}

async function start(
  settings: LauncherSettings,
  dependencies: LauncherDependencies,
  closers: Closer[],
  abortSignal: AbortSignal,
): Promise<StartupSummary> {
  const { host, stateDirectory } = settings;
  const checkpoint = () => {
    if (abortSignal.aborted) throw new Error("nlq start was stopped while starting");
  };
  const embeddedDirectory = path.join(stateDirectory, "postgres");
  const needsEmbedded = settings.databaseUrl === undefined || settings.metadataUrl === undefined;
  await assertPortFree(host, settings.proxyPort, "NLQ_PROXY_PORT");
  if (settings.web) await assertPortFree(host, settings.webPort, "NLQ_WEB_PORT");
  // A server already on the directory is handled by startEmbeddedPostgres (refused if live, else restarted).
  if (needsEmbedded && runningServer(embeddedDirectory) === undefined) {
    await assertPortFree(host, settings.embeddedPort, "NLQ_EMBEDDED_PORT");
  }

  // The web build (a minute or two on a first start) runs beside everything else, not before or after it.
  const webBuilt = settings.web
    ? buildWebApp({
        directory: dependencies.webDirectory,
        environment: dependencies.environment,
        log: dependencies.log,
        abortSignal,
        ...(dependencies.nextBinary === undefined ? {} : { nextBinary: dependencies.nextBinary }),
      })
    : undefined;
  webBuilt?.catch(() => undefined); // Awaited (and reported) once the proxy is up; a failure must not go unhandled.

  let embedded: EmbeddedDatabase | undefined;
  if (needsEmbedded) {
    const started = await startEmbeddedDatabase({
      directory: embeddedDirectory,
      port: settings.embeddedPort,
      grantBelow: path.dirname(stateDirectory),
      demo: settings.databaseUrl === undefined,
      demoTableNames: dependencies.demoTableNames,
      loadDemoData: dependencies.loadDemoData,
      log: dependencies.log,
    });
    closers.push({ name: "embedded PostgreSQL", close: () => started.close() });
    embedded = started;
  }
  const database: StartupSummary["database"] =
    embedded?.demoUrl === undefined
      ? { url: settings.databaseUrl ?? "", embedded: false }
      : {
          url: embedded.demoUrl,
          embedded: true,
          directory: embedded.directory,
          loadedDemoData: embedded.loadedDemoData,
        };
  checkpoint();

  const metadataUrl = settings.metadataUrl ?? embedded?.metadataUrl;
  const storeOpening = Date.now();
  dependencies.log("opening the metadata store (migrations)…");
  const store = await openMetadataStore({
    url: metadataUrl,
    // The home too: the LLM cache's signing key lives in its `.nlq` (the web app gets the same NLQ_HOME).
    settings: { migrationsDirectory: settings.migrationsDirectory, home: path.dirname(stateDirectory) },
  });
  closers.push({ name: "metadata store", close: () => store.close() });
  dependencies.log(`metadata store ready in ${((Date.now() - storeOpening) / 1000).toFixed(1)} s`);
  checkpoint();

  const upstream = new URL(database.url);
  const proxy = await dependencies.startProxy({
    host,
    port: settings.proxyPort,
    upstreamHost: upstream.hostname || "127.0.0.1",
    upstreamPort: Number(upstream.port || 5432),
    queryLog: store.queryLog,
    metadataStore: store,
  });
  closers.push({ name: "proxy", close: () => proxy.close() });
  if (database.embedded && dependencies.indexDemo) {
    // In the background: questions are answered meanwhile (live value lookup), then from the index.
    const indexing = dependencies.indexDemo(database.url, store, abortSignal).then(
      (result) =>
        dependencies.log(
          `demo indexed: ${result.tables} tables (${result.indexed} (re)indexed) in ${result.seconds.toFixed(1)} s`,
        ),
      (error: unknown) => {
        if (!abortSignal.aborted)
          dependencies.log(`indexing the demo failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    closers.push({ name: "demo indexing", close: () => indexing });
  }
  // Usable from now on, even while the web app still builds.
  const passwordFilePrefix = database.embedded && embedded !== undefined ? `PGPASSFILE=${embedded.password.file} ` : "";
  dependencies.log(
    `the proxy is ready: ${passwordFilePrefix}psql "postgresql://postgres@${host}:${proxy.port}/${upstream.pathname.slice(1) || "postgres"}"` +
      (settings.web ? " (the web app is still starting)" : ""),
  );
  checkpoint();

  let webUrl: string | undefined;
  if (settings.web) {
    const web = await startWebApp({
      directory: dependencies.webDirectory,
      host,
      port: settings.webPort,
      environment: {
        ...dependencies.environment,
        DATABASE_URL: database.url,
        // The web app shares the home (the LLM cache's integrity key lives there).
        NLQ_HOME: path.dirname(stateDirectory),
        // The web app's bundle cannot find the migrations relative to its sources: say where they are.
        NLQ_MIGRATIONS_DIR: metadataMigrationsFolder(settings.migrationsDirectory),
        ...(metadataUrl === undefined ? {} : { NLQ_METADATA_URL: metadataUrl }),
      },
      log: dependencies.log,
      abortSignal,
      ...(webBuilt === undefined ? {} : { built: webBuilt }),
      ...(dependencies.nextBinary === undefined ? {} : { nextBinary: dependencies.nextBinary }),
    });
    closers.push({ name: "web app", close: () => web.stop() });
    webUrl = web.url;
  }
  checkpoint();

  const summary: StartupSummary = {
    database: { ...database, url: redactUrl(database.url) },
    proxy: { host, port: proxy.port },
    metadata: { location: store.location, embedded: settings.metadataUrl === undefined },
    webUrl,
    model: dependencies.model,
    ...(embedded === undefined
      ? {}
      : {
          embeddedPassword: {
            file: embedded.password.file,
            ...(embedded.password.created ? { generated: embedded.password.password } : {}),
          },
        }),
  };
  dependencies.log(formatStartupBanner(summary));
  return summary;
}

/** Closes in reverse start order: web and proxy first, the metadata store, then the embedded PostgreSQL. */
async function closeAll(closers: Closer[], log: (line: string) => void): Promise<void> {
  for (const closer of closers.toReversed()) {
    try {
      await closer.close();
    } catch (error) {
      log(`stopping the ${closer.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  closers.length = 0;
}
