import { readFileSync } from "node:fs";
import { createSecureContext, type SecureContext } from "node:tls";
import { ConfigurationError } from "@nlq/engine";
import type { ClientTlsSettings } from "../config/proxy-server-settings";

/** TLS toward the proxy's clients, as each connection uses it. */
export interface ClientTls {
  /** The certificate and key, loaded once. */
  readonly secureContext: SecureContext;
  /** Refuse a StartupMessage sent without TLS (FATAL 28000); CancelRequests are still accepted in plaintext. */
  readonly required: boolean;
  /** A client that has not completed the handshake this long after it began is disconnected (`NLQ_TLS_HANDSHAKE_TIMEOUT_MS`). */
  readonly handshakeTimeoutMilliseconds: number;
}

/** `NLQ_TLS_HANDSHAKE_TIMEOUT_MS`'s default. */
export const DEFAULT_TLS_HANDSHAKE_TIMEOUT_MILLISECONDS = 10_000;

/**
 * Reads the PEM certificate and key (`NLQ_TLS_CERT`, `NLQ_TLS_KEY`) into a secure context. Throws
 * `ConfigurationError` naming the file when one cannot be read or the pair is not a valid certificate and key.
 */
export function loadClientTls(
  settings: ClientTlsSettings,
  handshakeTimeoutMilliseconds = DEFAULT_TLS_HANDSHAKE_TIMEOUT_MILLISECONDS,
): ClientTls {
  const certificate = readPem(settings.certificateFile, "NLQ_TLS_CERT");
  const key = readPem(settings.keyFile, "NLQ_TLS_KEY");
  try {
    return {
      secureContext: createSecureContext({ cert: certificate, key }),
      required: settings.required,
      handshakeTimeoutMilliseconds,
    };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigurationError(
      `NLQ_TLS_CERT ${settings.certificateFile} and NLQ_TLS_KEY ${settings.keyFile} are not a PEM certificate and its key: ${reason}`,
      { cause },
    );
  }
}

function readPem(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigurationError(`${variable}: cannot read ${file}: ${reason}`, { cause });
  }
}
