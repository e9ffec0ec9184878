import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

/** A throwaway certificate authority and a server certificate it signed, for TLS tests. */
export interface TestCertificates {
  /** The CA certificate (PEM): a client's root certificate (`sslrootcert`, node's `ca`). */
  readonly caFile: string;
  /** The server certificate (PEM) for `localhost` and `127.0.0.1`, signed by the CA. */
  readonly certificateFile: string;
  /** Its private key (PEM, unencrypted). */
  readonly keyFile: string;
  /** Another CA's certificate: verification against it must fail. */
  readonly otherCaFile: string;
}

/**
 * Creates the certificates in `directory` with the `openssl` command (P-256 keys, valid for two days): the server
 * certificate names `DNS:localhost` and `IP:127.0.0.1`, so `verify-full` succeeds for both and fails for other names.
 */
export function createTestCertificates(directory: string): TestCertificates {
  const file = (name: string) => path.join(directory, name);
  const openssl = (...commandArguments: string[]) =>
    execFileSync("openssl", commandArguments, { cwd: directory, stdio: ["ignore", "ignore", "pipe"] });
  const newCa = (name: string) =>
    openssl(
      "req",
      ...["-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", file(`${name}.key`), "-out", file(`${name}.crt`), "-days", "2", "-subj", `/CN=${name}`],
      ...["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
    );
  newCa("nlq-test-ca");
  newCa("nlq-other-ca");
  openssl(
    "req",
    ...["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost"],
  );
  writeFileSync(file("server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  openssl(
    "x509",
    ...["-req", "-in", file("server.csr"), "-CA", file("nlq-test-ca.crt"), "-CAkey", file("nlq-test-ca.key")],
    ...["-CAcreateserial", "-out", file("server.crt"), "-days", "2", "-extfile", file("server.ext")],
  );
  return {
    caFile: file("nlq-test-ca.crt"),
    certificateFile: file("server.crt"),
    keyFile: file("server.key"),
    otherCaFile: file("nlq-other-ca.crt"),
  };
}
