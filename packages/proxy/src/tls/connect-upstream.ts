import { readFileSync } from "node:fs";
import { connect, isIP, type Socket } from "node:net";
import { checkServerIdentity, connect as connectTls } from "node:tls";
import { ConfigurationError } from "@nlq/engine";
import { serialize } from "pg-protocol";
import { POSTGRESQL_ALPN } from "./accept-client-tls";
import { UpstreamTlsError } from "./upstream-tls-error";
import type { UpstreamTlsSettings } from "./upstream-tls-settings";

export interface UpstreamAddress {
  readonly host: string;
  readonly port: number;
}

/** Opens one upstream connection: a plain socket at once (sslmode=disable), or once TLS is negotiated. */
export type UpstreamConnector = () => Socket | Promise<Socket>;

/**
 * The connector for `address` under `tls` (read from the upstream URL). `sslrootcert` is read once, here (throws
 * `ConfigurationError` when it cannot be). With TLS, each connection sends an SSLRequest; on `S` the socket is wrapped
 * with `tls.connect` (ALPN `postgresql`), verifying the chain (`verify-ca`, `require` with `sslrootcert`) and the host
 * name (`verify-full`); on `N` it goes on in plaintext only under `prefer`. The promise rejects with
 * `UpstreamTlsError`.
 */
export function createUpstreamConnector(address: UpstreamAddress, tls: UpstreamTlsSettings): UpstreamConnector {
  if (tls.mode === "disable") return () => connect(address);
  let ca: Buffer | undefined;
  if (tls.rootCertificate !== undefined && tls.rootCertificate !== "system") {
    try {
      ca = readFileSync(tls.rootCertificate);
    } catch (cause) {
      throw new ConfigurationError(`upstream sslrootcert: cannot read ${tls.rootCertificate}`, { cause });
    }
  }
  return () => negotiateUpstream(address, tls, ca);
}

async function negotiateUpstream(address: UpstreamAddress, tls: UpstreamTlsSettings, ca: Buffer | undefined) {
  const socket = connect(address);
  socket.setNoDelay(true);
  let answer: number;
  try {
    answer = await sslAnswer(socket);
  } catch (error) {
    socket.destroy();
    throw error;
  }
  if (answer === "N".charCodeAt(0)) {
    if (tls.mode === "prefer") {
      socket.resume();
      return socket;
    }
    socket.destroy();
    throw new UpstreamTlsError(`the upstream server does not support SSL, but sslmode=${tls.mode} was set`);
  }
  const verifyChain = tls.mode === "verify-ca" || tls.mode === "verify-full" || tls.rootCertificate !== undefined;
  const secure = connectTls({
    socket,
    ALPNProtocols: [POSTGRESQL_ALPN],
    ...(isIP(address.host) ? {} : { servername: address.host }),
    ...(ca === undefined ? {} : { ca }),
    rejectUnauthorized: verifyChain,
    checkServerIdentity: (_host, certificate) =>
      tls.mode === "verify-full" ? checkServerIdentity(address.host, certificate) : undefined,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      secure.once("secureConnect", resolve);
      secure.once("error", reject);
    });
  } catch (cause) {
    secure.destroy();
    if (tls.mode === "prefer") return connect(address);
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new UpstreamTlsError(`TLS toward the upstream server failed (sslmode=${tls.mode}): ${reason}`, {
      cause,
    });
  }
  secure.removeAllListeners("error");
  // The TLS socket reports the connection's errors; the wrapped one must not throw them as unhandled.
  socket.on("error", () => {});
  return secure;
}

/**
 * Sends an SSLRequest and reads the one-byte answer. More bytes after it are refused: a man in the middle could have
 * placed them there before the handshake (CVE-2021-23222).
 */
function sslAnswer(socket: Socket): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      cleanup();
      socket.pause();
      const first = chunk[0]!;
      if (first === "E".charCodeAt(0)) {
        reject(new UpstreamTlsError("the upstream server answered the SSLRequest with an error"));
      } else if (first !== "S".charCodeAt(0) && first !== "N".charCodeAt(0)) {
        reject(new UpstreamTlsError(`the upstream server sent an invalid answer to the SSLRequest`));
      } else if (chunk.length > 1) {
        reject(new UpstreamTlsError("the upstream server sent unencrypted data after its SSL answer"));
      } else {
        resolve(first);
      }
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new UpstreamTlsError(`could not connect to the upstream server: ${error.message}`, { cause: error }));
    };
    const onClose = () => {
      cleanup();
      reject(new UpstreamTlsError("the upstream server closed the connection during SSL negotiation"));
    };
    socket.on("data", onData);
    socket.on("error", onError);
    socket.on("close", onClose);
    socket.write(serialize.requestSsl());
  });
}
