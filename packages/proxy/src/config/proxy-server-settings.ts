import { postgresUrlVariable, type ServiceSettings, serviceSettingsFrom, serviceVariables } from "@nlq/adapters";
import {
  ConfigurationError,
  optionalPortVariable,
  type ParsedEnvironment,
  parseEnvironment,
  portVariable,
  switchVariable,
  textVariable,
  wholeNumberVariable,
} from "@nlq/engine";

/** The variables only the proxy reads (`nlq proxy`, `nlq start`): where it listens, its caps, TLS and authentication. */
export const proxyVariables = {
  NLQ_PROXY_HOST: textVariable.transform((value) => value ?? "127.0.0.1"),
  NLQ_PROXY_PORT: portVariable(6_432),
  NLQ_METRICS_HOST: textVariable.transform((value) => value ?? "127.0.0.1"),
  NLQ_METRICS_PORT: optionalPortVariable,
  NLQ_MAX_CONNECTIONS: wholeNumberVariable(1_000, 1),
  NLQ_MAX_CONCURRENT_QUESTIONS: wholeNumberVariable(64, 1),
  NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE: wholeNumberVariable(16, 1),
  NLQ_NATIVE_RELAY: switchVariable(true),
  NLQ_TLS_CERT: textVariable,
  NLQ_TLS_KEY: textVariable,
  NLQ_TLS_REQUIRED: switchVariable(false),
  NLQ_TLS_HANDSHAKE_TIMEOUT_MS: wholeNumberVariable(10_000, 1),
  NLQ_CLIENT_LOGIN_TIMEOUT_MS: wholeNumberVariable(60_000, 1),
  NLQ_SHUTDOWN_GRACE_MS: wholeNumberVariable(10_000, 0),
  NLQ_AUTH_QUERY_URL: postgresUrlVariable,
  NLQ_AUTH_QUERY: textVariable.transform(
    (value) => value ?? "SELECT usename, passwd FROM pg_shadow WHERE usename = $1",
  ),
};

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

/** The proxy's own configuration, read by `loadProxyServerSettings`. */
export interface ProxyServerSettings {
  /** `NLQ_PROXY_HOST`: interface `nlq proxy` listens on. Default `127.0.0.1`. */
  readonly proxyHost: string;
  /** `NLQ_PROXY_PORT`: the proxy's port (0 picks a free one). Default 6432. */
  readonly proxyPort: number;
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
  /**
   * `NLQ_SHUTDOWN_GRACE_MS`: on SIGTERM/SIGINT, how long the proxy lets running statements finish before it cancels
   * them and closes every connection, in milliseconds (`startProxyServer`'s `closeGraceMilliseconds`). Default 10000.
   */
  readonly shutdownGraceMilliseconds: number;
}

/**
 * The proxy's settings out of an environment parsed with `proxyVariables` (and maybe others). Throws
 * `ConfigurationError` when `NLQ_TLS_CERT` and `NLQ_TLS_KEY` are not set together, or `NLQ_TLS_REQUIRED` lacks them.
 */
export function proxyServerSettingsFrom(values: ParsedEnvironment<typeof proxyVariables>): ProxyServerSettings {
  if ((values.NLQ_TLS_CERT === undefined) !== (values.NLQ_TLS_KEY === undefined)) {
    throw new ConfigurationError("invalid nlq configuration: NLQ_TLS_CERT and NLQ_TLS_KEY must be set together");
  }
  if (values.NLQ_TLS_REQUIRED && values.NLQ_TLS_CERT === undefined) {
    throw new ConfigurationError("invalid nlq configuration: NLQ_TLS_REQUIRED=on needs NLQ_TLS_CERT and NLQ_TLS_KEY");
  }
  return {
    proxyHost: values.NLQ_PROXY_HOST,
    proxyPort: values.NLQ_PROXY_PORT,
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
    shutdownGraceMilliseconds: values.NLQ_SHUTDOWN_GRACE_MS,
  };
}

/**
 * Reads and validates what a proxy process reads (the pipeline's, the shared and the proxy's variables) in one pass:
 * empty strings count as unset, and one `ConfigurationError` names each bad variable.
 */
export function loadProxyServerSettings(
  environment: Readonly<Record<string, string | undefined>>,
): ServiceSettings & ProxyServerSettings {
  const values = parseEnvironment(environment, { ...serviceVariables, ...proxyVariables });
  return { ...serviceSettingsFrom(values), ...proxyServerSettingsFrom(values) };
}
