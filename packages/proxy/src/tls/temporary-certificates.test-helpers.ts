import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestCertificates, type TestCertificates } from "@nlq/adapters/testing";
import type { ClientTlsSettings } from "../config/proxy-server-settings";

/** Test certificates (createTestCertificates) in a temporary directory of their own. */
export interface TemporaryCertificates extends TestCertificates {
  readonly directory: string;
  /** TLS toward clients with the server certificate, not required. */
  readonly clientTls: ClientTlsSettings;
  /** Deletes the directory. */
  readonly remove: () => void;
}

/** Creates test certificates in a new temporary directory named after `prefix`. */
export function createTemporaryCertificates(prefix: string): TemporaryCertificates {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  let certificates: TestCertificates;
  try {
    certificates = createTestCertificates(directory);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    ...certificates,
    directory,
    clientTls: { certificateFile: certificates.certificateFile, keyFile: certificates.keyFile, required: false },
    remove,
  };
}
