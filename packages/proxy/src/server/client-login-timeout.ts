import { ConnectionStep } from "../session/connection-step";

/** `NLQ_CLIENT_LOGIN_TIMEOUT_MS`'s default: PgBouncer's `client_login_timeout` and PostgreSQL's `authentication_timeout`. */
export const DEFAULT_CLIENT_LOGIN_TIMEOUT_MILLISECONDS = 60_000;

/**
 * Steps in which the connection waits on the client to log in: its startup packet (after an SSLRequest answered `N`
 * too), its TLS handshake, its answers to the proxy's own SCRAM exchange. Later steps wait on the upstream, which
 * enforces its own `authentication_timeout`, or are the session itself.
 */
const loginSteps: ReadonlySet<ConnectionStep> = new Set([
  ConnectionStep.AwaitingStartup,
  ConnectionStep.NegotiatingClientTls,
  ConnectionStep.AuthenticatingClient,
]);

/**
 * Disconnects a client that is still logging in `timeoutMilliseconds` after it connected (one that connects and sends
 * nothing, or stalls within its startup packet, would otherwise hold a connection slot forever). Returns the function
 * that cancels the watch, for when the connection closes.
 */
export function watchClientLogin(
  connection: { readonly step: ConnectionStep; destroy(): void },
  timeoutMilliseconds: number,
  onTimeout: () => void,
): () => void {
  const timer = setTimeout(() => {
    if (!loginSteps.has(connection.step)) return;
    onTimeout();
    connection.destroy();
  }, timeoutMilliseconds);
  timer.unref();
  return () => clearTimeout(timer);
}
