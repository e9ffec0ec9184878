import { ConfigurationError } from "../errors";
import { parseEnvironment } from "./environment-schema";

/** Where the description vectors live when not in the metadata store. */
export interface QdrantSettings {
  /** `NLQ_QDRANT_URL`: Qdrant's REST URL. Default: unset (vectors embedded in the metadata store). */
  readonly url: string | undefined;
  /** `NLQ_QDRANT_API_KEY`: Qdrant API key. Default: none. */
  readonly apiKey: string | undefined;
  /** `NLQ_QDRANT_COLLECTION_PREFIX`: prefix of every collection name. Default: none. */
  readonly collectionPrefix: string | undefined;
}

/** TLS toward the proxy's clients: PEM files read when the proxy starts. */
export interface ClientTlsSettings {
  /** `NLQ_TLS_CERT`: path of the server certificate (chain), PEM. */
  readonly certificateFile: string;
  /** `NLQ_TLS_KEY`: path of its private key, PEM. */
  readonly keyFile: string;
  /** `NLQ_TLS_REQUIRED`: refuse unencrypted StartupMessages with 28000. Default off. */
  readonly required: boolean;
}

/** The proxy authenticates clients itself with SCRAM-SHA-256 against verifiers an auth query reads (PgBouncer-style). */
export interface AuthQuerySettings {
  /** `NLQ_AUTH_QUERY_URL`: where the auth user connects (the upstream server, as a role allowed to run the query). */
  readonly url: string;
  /**
   * `NLQ_AUTH_QUERY`: returns (name, SCRAM verifier) for the role `$1`. Default PgBouncer's
   * `SELECT usename, passwd FROM pg_shadow WHERE usename = $1` (superuser only; use a SECURITY DEFINER function).
   */
  readonly query: string;
}

/**
 * Configuration of nlq's processes (proxy, web app, `nlq start`, the CLI's stores), read from the same schema as the
 * pipeline's `Settings` by `loadServiceSettings`.
 */
export interface ServiceSettings {
  /** `DATABASE_URL`: the user's PostgreSQL (the commands check its form). Default: unset. */
  readonly databaseUrl: string | undefined;
  /** `NLQ_DEMO_URL`: where `nlq demo load` writes (before `DATABASE_URL`). Default: unset. */
  readonly demoUrl: string | undefined;
  /** `NLQ_HOME`: the folder holding `.nlq/` (embedded PostgreSQL, state). Default: unset (the current directory). */
  readonly home: string | undefined;
  /** `NLQ_METADATA_URL`: PostgreSQL URL of the metadata store. Default: unset (the embedded PostgreSQL's `nlq_metadata`). */
  readonly metadataUrl: string | undefined;
  /** `NLQ_MIGRATIONS_DIR`: the metadata store's migrations folder. Default: unset (the repository's `migrations/`). */
  readonly migrationsDirectory: string | undefined;
  /** `NLQ_QDRANT_*`: the Qdrant vector store. */
  readonly qdrant: QdrantSettings;
  /** `NLQ_WEB_POOL_SIZE`: the web app's most concurrent database connections (questions). Default 10. */
  readonly webPoolSize: number;
  /**
   * `NLQ_WEB_SINGLE_USER`: the web app asks no sign-in and answers every question as `DATABASE_URL`'s role (the demo
   * of `nlq start`). Default false: each user signs in as a PostgreSQL role.
   */
  readonly webSingleUser: boolean;
  /** `NLQ_WEB_SESSION_IDLE_MINUTES`: a signed-in web session (and its connections) ends after this idle time. Default 30. */
  readonly webSessionIdleMinutes: number;
  /**
   * `NLQ_WEB_EXAMPLE_ADMIN_ROLE`: members of this PostgreSQL role (and superusers) are verified-example administrators:
   * what they verify is shared with every role, and they edit and delete shared examples. `none`: superusers only.
   * Default `nlq_example_admin`.
   */
  readonly webExampleAdministratorRole: string;
  /** `NLQ_PROXY_HOST`: interface `nlq proxy` listens on. Default `127.0.0.1`. */
  readonly proxyHost: string;
  /** `NLQ_PROXY_PORT`: the proxy's port (0 picks a free one). Default 6432. */
  readonly proxyPort: number;
  /** `NLQ_WEB_PORT`: the web app's port under `nlq start`. Default 3000. */
  readonly webPort: number;
  /** `NLQ_EMBEDDED_PORT`: the embedded PostgreSQL's port under `nlq start` (0 picks a free one). Default 54320. */
  readonly embeddedPort: number;
  /**
   * Where `nlq proxy` and `nlq start` serve `GET /metrics` (Prometheus) and `GET /health`: `NLQ_METRICS_HOST`
   * (default `127.0.0.1`) and `NLQ_METRICS_PORT` (0 picks a free one; 9187 is the conventional choice). Default:
   * undefined, not served, because `NLQ_METRICS_PORT` is unset (a fixed default port would make a second proxy on
   * the same machine fail to start).
   */
  readonly metricsListen: { readonly host: string; readonly port: number } | undefined;
  /**
   * `NLQ_MAX_CONNECTIONS`: client connections the proxy serves at once; one more gets PostgreSQL's FATAL 53300
   * "sorry, too many clients already". Default 1000.
   */
  readonly maxConnections: number;
  /**
   * `NLQ_MAX_CONCURRENT_QUESTIONS` and `NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE`: questions the proxy answers at once, in
   * all and per role (the startup packet's user); one more fails at once with SQLSTATE 53400 naming the cap, and the
   * connection stays usable. Default 64 and 16.
   */
  readonly maxConcurrentQuestions: { readonly perProxy: number; readonly perRole: number };
  /**
   * `NLQ_NATIVE_RELAY`: ordinary SQL passes through the proxy's native relay (a thread of its own, outside JavaScript)
   * when it is built; `off` keeps every byte in the JavaScript connection. Default on.
   */
  readonly nativeRelay: boolean;
  /**
   * TLS toward the proxy's clients (`NLQ_TLS_CERT` and `NLQ_TLS_KEY`, both or neither; `NLQ_TLS_REQUIRED`). Default:
   * undefined, SSLRequest is answered `N`.
   */
  readonly clientTls: ClientTlsSettings | undefined;
  /**
   * `NLQ_TLS_HANDSHAKE_TIMEOUT_MS`: how long a client may take to complete the TLS handshake toward the proxy (after
   * `S` answers its SSLRequest, or from its first ClientHello byte) before the connection is closed. Default 10000.
   */
  readonly tlsHandshakeTimeoutMilliseconds: number;
  /**
   * `NLQ_CLIENT_LOGIN_TIMEOUT_MS`: how long a client may take from connecting to sending its StartupMessage (and, with
   * `NLQ_AUTH_QUERY_URL`, to finishing the proxy's SCRAM exchange) before the connection is closed, as PgBouncer's
   * `client_login_timeout` and PostgreSQL's `authentication_timeout`. Default 60000.
   */
  readonly clientLoginTimeoutMilliseconds: number;
  /** `NLQ_AUTH_QUERY_URL` and `NLQ_AUTH_QUERY`; undefined (authentication passes through) unless the URL is set. */
  readonly authQuery: AuthQuerySettings | undefined;
}

/**
 * Reads and validates the service variables (validating the whole environment, pipeline variables too, as
 * `loadSettings` does). Empty strings count as unset. Throws `ConfigurationError` naming each bad variable.
 */
export function loadServiceSettings(environment: Readonly<Record<string, string | undefined>>): ServiceSettings {
  const values = parseEnvironment(environment);
  if ((values.NLQ_TLS_CERT === undefined) !== (values.NLQ_TLS_KEY === undefined)) {
    throw new ConfigurationError("invalid nlq configuration: NLQ_TLS_CERT and NLQ_TLS_KEY must be set together");
  }
  if (values.NLQ_TLS_REQUIRED && values.NLQ_TLS_CERT === undefined) {
    throw new ConfigurationError("invalid nlq configuration: NLQ_TLS_REQUIRED=on needs NLQ_TLS_CERT and NLQ_TLS_KEY");
  }
  return {
    databaseUrl: values.DATABASE_URL,
    demoUrl: values.NLQ_DEMO_URL,
    home: values.NLQ_HOME,
    metadataUrl: values.NLQ_METADATA_URL,
    migrationsDirectory: values.NLQ_MIGRATIONS_DIR,
    qdrant: {
      url: values.NLQ_QDRANT_URL,
      apiKey: values.NLQ_QDRANT_API_KEY,
      collectionPrefix: values.NLQ_QDRANT_COLLECTION_PREFIX,
    },
    webPoolSize: values.NLQ_WEB_POOL_SIZE,
    webSingleUser: values.NLQ_WEB_SINGLE_USER,
    webSessionIdleMinutes: values.NLQ_WEB_SESSION_IDLE_MINUTES,
    webExampleAdministratorRole: values.NLQ_WEB_EXAMPLE_ADMIN_ROLE,
    proxyHost: values.NLQ_PROXY_HOST,
    proxyPort: values.NLQ_PROXY_PORT,
    webPort: values.NLQ_WEB_PORT,
    embeddedPort: values.NLQ_EMBEDDED_PORT,
    metricsListen:
      values.NLQ_METRICS_PORT === undefined
        ? undefined
        : { host: values.NLQ_METRICS_HOST, port: values.NLQ_METRICS_PORT },
    maxConnections: values.NLQ_MAX_CONNECTIONS,
    maxConcurrentQuestions: {
      perProxy: values.NLQ_MAX_CONCURRENT_QUESTIONS,
      perRole: values.NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE,
    },
    nativeRelay: values.NLQ_NATIVE_RELAY,
    clientTls:
      values.NLQ_TLS_CERT === undefined || values.NLQ_TLS_KEY === undefined
        ? undefined
        : { certificateFile: values.NLQ_TLS_CERT, keyFile: values.NLQ_TLS_KEY, required: values.NLQ_TLS_REQUIRED },
    tlsHandshakeTimeoutMilliseconds: values.NLQ_TLS_HANDSHAKE_TIMEOUT_MS,
    clientLoginTimeoutMilliseconds: values.NLQ_CLIENT_LOGIN_TIMEOUT_MS,
    authQuery:
      values.NLQ_AUTH_QUERY_URL === undefined
        ? undefined
        : { url: values.NLQ_AUTH_QUERY_URL, query: values.NLQ_AUTH_QUERY },
  };
}
