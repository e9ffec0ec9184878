import { ConfigurationError } from "@nlq/engine";

/** The `sslmode`s the proxy honours toward the upstream (libpq's, except `allow`). */
export const upstreamSslModes = ["disable", "prefer", "require", "verify-ca", "verify-full"] as const;
export type UpstreamSslMode = (typeof upstreamSslModes)[number];

/** TLS toward the upstream server, read from the upstream URL's query parameters. */
export interface UpstreamTlsSettings {
  /** `sslmode`; default `disable` (see `upstreamTlsFromUrl`). */
  readonly mode: UpstreamSslMode;
  /**
   * `sslrootcert`: PEM file of the certificate authorities the server's certificate must chain to, or `system` for
   * Node's default CA store. Required by `verify-ca` and `verify-full`; with `require` it turns on chain
   * verification as in libpq.
   */
  readonly rootCertificate: string | undefined;
}

/**
 * Reads `sslmode` and `sslrootcert` from a `postgresql://` URL. Pure; throws `ConfigurationError` for a mode the proxy
 * does not implement (`allow`: it would have to retry a refused plaintext login with TLS), for an unknown one, for
 * `verify-ca`/`verify-full` without `sslrootcert`, and for `sslnegotiation=direct`.
 *
 * Without `sslmode` the proxy connects in plaintext (`disable`), unlike libpq's `prefer`: the proxy normally runs
 * next to the server, `prefer` protects against no active attacker, and a TLS session per pass-through connection
 * costs a handshake. Ask for TLS explicitly (`?sslmode=require` or better `verify-full`).
 */
export function upstreamTlsFromUrl(url: URL): UpstreamTlsSettings {
  const mode = url.searchParams.get("sslmode") ?? "disable";
  if (mode === "allow") {
    throw new ConfigurationError(
      "upstream sslmode=allow is not supported by the nlq proxy: use disable, prefer or require",
    );
  }
  if (!(upstreamSslModes as readonly string[]).includes(mode)) {
    throw new ConfigurationError(
      `upstream sslmode must be one of ${upstreamSslModes.join(", ")}, got "${mode.slice(0, 40)}"`,
    );
  }
  const negotiation = url.searchParams.get("sslnegotiation");
  if (negotiation !== null && negotiation !== "postgres") {
    throw new ConfigurationError(
      "upstream sslnegotiation: the nlq proxy negotiates TLS with an SSLRequest (postgres) only",
    );
  }
  const rootCertificate = url.searchParams.get("sslrootcert") ?? undefined;
  if ((mode === "verify-ca" || mode === "verify-full") && rootCertificate === undefined) {
    throw new ConfigurationError(
      `upstream sslmode=${mode} needs sslrootcert (a PEM file of the CA certificates, or "system")`,
    );
  }
  return { mode: mode as UpstreamSslMode, rootCertificate };
}
