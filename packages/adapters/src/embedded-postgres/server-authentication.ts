import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The embedded server's `pg_hba.conf`: SCRAM-SHA-256 for every connection, over TCP on the loopback only (the server
 * listens on 127.0.0.1 and has no Unix socket). Replication is not offered.
 */
export const embeddedHostBasedAuthentication = [
  "# Written by nlq at every start of the embedded PostgreSQL: edits are replaced.",
  "# TYPE  DATABASE  USER  ADDRESS        METHOD",
  "host    all       all   127.0.0.1/32   scram-sha-256",
  "host    all       all   ::1/128        scram-sha-256",
  "",
].join("\n");

/** True when the data directory's `pg_hba.conf` is exactly nlq's (false for a `trust` directory of an older nlq). */
export function hasEmbeddedHostBasedAuthentication(directory: string): boolean {
  try {
    return readFileSync(path.join(directory, "pg_hba.conf"), "utf8") === embeddedHostBasedAuthentication;
  } catch {
    return false;
  }
}

/** Replaces `pg_hba.conf` with nlq's (keeping the file's owner: it is rewritten in place, as the server user reads it). */
export function writeEmbeddedHostBasedAuthentication(directory: string): void {
  writeFileSync(path.join(directory, "pg_hba.conf"), embeddedHostBasedAuthentication);
}

/**
 * The statement that sets the superuser's password, for PostgreSQL's single-user mode (`postgres --single`), which
 * needs no authentication and runs while no server does. The password is base64url (no quote can occur); it is
 * checked anyway. `password_encryption` defaults to scram-sha-256 in PostgreSQL 18: the role gets a SCRAM verifier.
 */
export function setPasswordStatement(password: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(password)) throw new Error("the embedded superuser's password must be base64url");
  return `SET password_encryption = 'scram-sha-256'; ALTER ROLE postgres WITH PASSWORD '${password}';\n`;
}
