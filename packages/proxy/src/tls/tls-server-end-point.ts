import { createHash } from "node:crypto";
import type { TLSSocket } from "node:tls";

/** DER-encoded OIDs of certificate signature algorithms whose hash is not SHA-256. */
const signatureHashes: ReadonlyArray<readonly [Buffer, string]> = [
  [Buffer.from("06082a8648ce3d040303", "hex"), "sha384"], // ecdsa-with-SHA384
  [Buffer.from("06082a8648ce3d040304", "hex"), "sha512"], // ecdsa-with-SHA512
  [Buffer.from("06092a864886f70d01010c", "hex"), "sha384"], // sha384WithRSAEncryption
  [Buffer.from("06092a864886f70d01010d", "hex"), "sha512"], // sha512WithRSAEncryption
];

/**
 * The `tls-server-end-point` channel binding data (RFC 5929) of this side's certificate on a server TLS socket: the
 * certificate's hash with its signature algorithm's hash function (SHA-256 for SHA-256, MD5 and SHA-1, as the RFC
 * says). Undefined when the socket has no local certificate.
 */
export function tlsServerEndPoint(socket: TLSSocket): Buffer | undefined {
  const certificate = socket.getCertificate();
  if (certificate === null || !("raw" in certificate) || !Buffer.isBuffer(certificate.raw)) return undefined;
  const raw = certificate.raw;
  const hash = signatureHashes.find(([oid]) => raw.includes(oid))?.[1] ?? "sha256";
  return createHash(hash).update(raw).digest();
}
