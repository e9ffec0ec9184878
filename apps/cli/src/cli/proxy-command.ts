import {
  createQuestionAnswerer,
  type MetadataStore,
  openMetadataStore,
  type QdrantSettings,
  type ServiceSettings,
} from "@nlq/adapters";
import { type Answer, type AnswerQuestionOptions, ConfigurationError, loadSettings } from "@nlq/engine";
import {
  type ClientTlsSettings,
  consoleLogger,
  DEFAULT_MARKER,
  installProcessGuard,
  loadProxyServerSettings,
  type ProxyServerSettings,
  startProxyServer,
  type UpstreamTlsSettings,
  upstreamTlsFromUrl,
} from "@nlq/proxy";
import type { Command } from "commander";
import { ignoreBrokenPipe } from "../launcher/ignore-broken-pipe";
import { parseCommandOptions, parseListenAddress, proxyOptionsSchema } from "./command-options";
import { refuseInput } from "./command-output";

export interface ProxyCommandOptions {
  /** `--upstream`: upstream PostgreSQL URL; only host and port are used. Default `$DATABASE_URL`. */
  readonly upstream?: string;
  /** `--listen`: `host:port` to listen on. Default `$NLQ_PROXY_HOST:$NLQ_PROXY_PORT`, else `127.0.0.1:6432`. */
  readonly listen?: string;
  /** `--marker`: text that opens a question in a comment. Default `nl:`. */
  readonly marker: string;
  /**
   * `--no-metadata` sets this false: no metadata store, so no catalog index and no query log. Default true: the store
   * (`$NLQ_METADATA_URL`, else the embedded PostgreSQL in `$NLQ_HOME/.nlq/postgres`) is opened.
   */
  readonly metadata?: boolean;
  /** `--query-log`: kept for compatibility; the query log is on whenever the metadata store is open. */
  readonly queryLog?: boolean;
  /** `--progress`: send pipeline progress as NOTICEs while answering. Default off. */
  readonly progress?: boolean;
  /** `--tls-cert`: PEM certificate for TLS toward clients. Default `$NLQ_TLS_CERT`. */
  readonly tlsCert?: string;
  /** `--tls-key`: PEM key of `--tls-cert`. Default `$NLQ_TLS_KEY`. */
  readonly tlsKey?: string;
}

export interface ResolvedProxyCommand {
  readonly upstreamHost: string;
  readonly upstreamPort: number;
  readonly listenHost: string;
  readonly listenPort: number;
  readonly marker: string;
  /** From the upstream URL's `sslmode` and `sslrootcert`. */
  readonly upstreamTls: UpstreamTlsSettings;
  /** `--tls-cert`/`--tls-key`, else `NLQ_TLS_CERT`/`NLQ_TLS_KEY`; undefined: no TLS toward clients. */
  readonly clientTls: ClientTlsSettings | undefined;
}

/**
 * Resolves the command's options against the environment, read through the settings schema (`loadProxyServerSettings`).
 * Pure; throws `ConfigurationError`.
 */
export function resolveProxyCommand(
  options: ProxyCommandOptions,
  environment: Readonly<Record<string, string | undefined>>,
): ResolvedProxyCommand {
  const service = loadProxyServerSettings(environment);
  const upstreamText = options.upstream ?? service.databaseUrl;
  if (upstreamText === undefined || upstreamText.trim() === "") {
    throw new ConfigurationError("no upstream: pass --upstream postgresql://host:port or set DATABASE_URL");
  }
  let upstream: URL;
  try {
    upstream = new URL(upstreamText);
  } catch (cause) {
    throw new ConfigurationError(`--upstream is not a URL: expected postgresql://host:port`, { cause });
  }
  if (upstream.protocol !== "postgresql:" && upstream.protocol !== "postgres:") {
    throw new ConfigurationError(`--upstream must be a postgresql:// URL, not ${upstream.protocol}`);
  }
  const listen = parseListen(options.listen, service);
  if (options.marker.trim() === "") throw new ConfigurationError("--marker must not be empty");
  return {
    upstreamHost: upstream.hostname || "127.0.0.1",
    upstreamPort: parsePort(upstream.port || "5432", "--upstream port"),
    listenHost: listen.host,
    listenPort: listen.port,
    marker: options.marker,
    upstreamTls: upstreamTlsFromUrl(upstream),
    clientTls: resolveClientTls(options, service),
  };
}

function resolveClientTls(options: ProxyCommandOptions, service: ProxyServerSettings): ClientTlsSettings | undefined {
  if (options.tlsCert === undefined && options.tlsKey === undefined) return service.clientTls;
  const certificateFile = options.tlsCert ?? service.clientTls?.certificateFile;
  const keyFile = options.tlsKey ?? service.clientTls?.keyFile;
  if (certificateFile === undefined || keyFile === undefined) {
    throw new ConfigurationError("--tls-cert and --tls-key must be given together (or NLQ_TLS_CERT and NLQ_TLS_KEY)");
  }
  return { certificateFile, keyFile, required: service.clientTls?.required ?? false };
}

function parseListen(listen: string | undefined, service: ProxyServerSettings): { host: string; port: number } {
  if (listen === undefined) return { host: service.proxyHost, port: service.proxyPort };
  const address = parseListenAddress(listen);
  if (address === undefined) throw new ConfigurationError(`--listen: "${listen}" is not a port number or host:port`);
  return address;
}

function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new ConfigurationError(`${what}: "${text}" is not a port number`);
  return port;
}

/** `nlq proxy`: the PostgreSQL wire-protocol proxy in front of one upstream server. */
export function registerProxyCommand(program: Command): void {
  program
    .command("proxy")
    .description(
      "Run the PostgreSQL wire-protocol proxy: ordinary SQL passes through untouched, /* nl: question */ is answered",
    )
    .option("--upstream <url>", "upstream PostgreSQL, postgresql://host:port (default: $DATABASE_URL)")
    .option("--listen <host:port>", "where to listen (default: $NLQ_PROXY_HOST:$NLQ_PROXY_PORT or 127.0.0.1:6432)")
    .option("--marker <text>", "text that opens a question inside a comment", DEFAULT_MARKER)
    .option(
      "--no-metadata",
      "do not open the metadata store ($NLQ_METADATA_URL or $NLQ_HOME/.nlq/postgres): no catalog index, no query log",
    )
    .option("--query-log", "log each question's trace in the metadata store (the default whenever it is open)")
    .option("--progress", "send pipeline progress (schema, candidates, model calls) as NOTICEs", false)
    .option("--tls-cert <file>", "PEM certificate: TLS toward clients (default: $NLQ_TLS_CERT)")
    .option("--tls-key <file>", "PEM private key of --tls-cert (default: $NLQ_TLS_KEY)")
    .addHelpText(
      "after",
      `
Connect with any client, e.g.  psql -h 127.0.0.1 -p 6432 -U <user> <database>
and ask:  /* nl: how many orders were placed last week? */;
Authentication runs end to end with the upstream server. TLS toward clients with --tls-cert/--tls-key
(NLQ_TLS_REQUIRED=on refuses unencrypted logins); toward the upstream per its URL's sslmode (disable when absent,
prefer, require, verify-ca, verify-full) and sslrootcert.
Questions use the catalog index of their database when \`nlq index\` built one in the metadata store, and live
introspection otherwise; each question's trace goes to the store's query log.
Environment: DATABASE_URL, NLQ_PROXY_HOST, NLQ_PROXY_PORT, NLQ_MODEL (provider:model), NLQ_STATEMENT_TIMEOUT_MS,
NLQ_ROW_LIMIT, NLQ_METADATA_URL, NLQ_HOME, NLQ_SHUTDOWN_GRACE_MS (SIGTERM: let running statements finish this long,
then cancel them; default 10000), NLQ_METRICS_PORT (serve GET /metrics and GET /health on this port; default off),
NLQ_METRICS_HOST (default 127.0.0.1), NLQ_TLS_CERT, NLQ_TLS_KEY, NLQ_TLS_REQUIRED, NLQ_TLS_HANDSHAKE_TIMEOUT_MS
(default 10000), NLQ_CLIENT_LOGIN_TIMEOUT_MS (a client that has not logged in by then is disconnected; default 60000),
NLQ_AUTH_QUERY_URL and NLQ_AUTH_QUERY (the proxy authenticates clients itself with SCRAM-SHA-256, PgBouncer-style),
NLQ_NATIVE_RELAY (off: relay ordinary SQL in JavaScript instead of the native relay; default on)`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      let options: ProxyCommandOptions;
      try {
        options = parseCommandOptions(proxyOptionsSchema, givenOptions);
      } catch (error) {
        refuseInput("proxy", error);
        return;
      }
      process.exitCode = await runProxy(options);
      // Everything is closed; should a library still hold the event loop, leave anyway.
      setTimeout(() => process.exit(), 3_000).unref();
    });
}

/**
 * The metadata store of `nlq proxy`: opened by default (`NLQ_METADATA_URL`, else the embedded PostgreSQL in
 * `$NLQ_HOME/.nlq/postgres`), undefined with `--no-metadata`. Failing to open it fails the command: a proxy that
 * silently lost its index and log would be worse than one that says why it cannot start.
 */
export async function openProxyMetadataStore(
  options: Pick<ProxyCommandOptions, "metadata">,
  service: ServiceSettings,
): Promise<MetadataStore | undefined> {
  return options.metadata === false ? undefined : openMetadataStore({ settings: service });
}

/**
 * `answerQuestion` as the proxy (`nlq proxy`, `nlq start`) runs it (`createQuestionAnswerer`): each question's database
 * and role are read from its upstream session; with a metadata store, the catalog index of that database when
 * `nlq index` built one (its description vectors in `qdrant` when that has a URL, `NLQ_QDRANT_URL`), and the store's
 * model-response cache. A database nothing is indexed for (or any, with `--no-metadata`) gets a value index built in the
 * background — the proxy is long-lived — over a connection of its own as the asking role with no password: the proxy
 * never holds the client's, so the build logs in only where the server asks none (trust, peer) and the question
 * otherwise keeps the bounded live value lookup (`connectBackground`). The query log is handed to each question by
 * the proxy server.
 */
export function proxyAnswerQuestion(
  metadata: MetadataStore | undefined,
  upstreamHost: string,
  upstreamPort: number,
  qdrant?: QdrantSettings,
): (options: AnswerQuestionOptions) => Promise<Answer> {
  return createQuestionAnswerer({
    store: metadata,
    upstreamUrl: `postgresql://${upstreamHost}:${upstreamPort}`,
    qdrant,
    llmCache: metadata?.llmCache,
    backgroundValueIndexes: true,
  }).answer;
}

async function runProxy(options: ProxyCommandOptions): Promise<number> {
  let metadata: MetadataStore | undefined;
  const removeGuard = installProcessGuard(consoleLogger);
  ignoreBrokenPipe(); // `nlq proxy | tee log`, then Ctrl-C: the last lines meet a closed pipe.
  try {
    const resolved = resolveProxyCommand(options, process.env);
    const settings = loadSettings(process.env);
    const service = loadProxyServerSettings(process.env);
    if (settings.model === undefined) {
      consoleLogger.warn("NLQ_MODEL is not set: ordinary SQL passes through, questions will fail with instructions");
    }
    metadata = await openProxyMetadataStore(options, service);
    if (metadata) console.log(`nlq proxy: metadata store ${metadata.location} (catalog index when built, query log)`);
    const server = await startProxyServer({
      ...resolved,
      answerQuestion: proxyAnswerQuestion(metadata, resolved.upstreamHost, resolved.upstreamPort, service.qdrant),
      settings,
      progressNotices: options.progress ?? false,
      ...(metadata === undefined
        ? {}
        : {
            queryLog: metadata.queryLog,
            auditTrail: metadata.auditTrail,
            // `/* nl#2 remember */;` keeps a confirmed reading; a plain pick keeps nothing.
            readingConfirmations: {
              database: metadata.database,
              administratorRole: service.webExampleAdministratorRole,
            },
          }),
      logger: consoleLogger,
      closeGraceMilliseconds: service.shutdownGraceMilliseconds,
      ...(service.metricsListen === undefined ? {} : { metricsListen: service.metricsListen }),
      maxConnections: service.maxConnections,
      maxConcurrentQuestions: service.maxConcurrentQuestions,
      nativeRelay: service.nativeRelay,
      tlsHandshakeTimeoutMilliseconds: service.tlsHandshakeTimeoutMilliseconds,
      clientLoginTimeoutMilliseconds: service.clientLoginTimeoutMilliseconds,
      ...(service.authQuery === undefined ? {} : { authQuery: service.authQuery }),
    });
    if (server.metricsAddress) {
      const { host, port } = server.metricsAddress;
      console.log(`nlq proxy: metrics on http://${host}:${port}/metrics, health on http://${host}:${port}/health`);
    }
    console.log(
      `nlq proxy listening on ${server.address.host}:${server.address.port} → ${resolved.upstreamHost}:${resolved.upstreamPort} (marker "${resolved.marker}")`,
    );
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    console.log(`nlq proxy: ${signal}: stopping (running statements get ${service.shutdownGraceMilliseconds} ms)`);
    await server.close();
    await metadata?.close();
    console.log("nlq proxy stopped.");
    return 0;
  } catch (error) {
    await metadata?.close().catch(() => {});
    console.error(`nlq proxy: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    removeGuard();
  }
}
