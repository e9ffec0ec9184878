import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { EmbeddedPostgresError } from "./embedded-postgres-error";

/** The superuser of the embedded PostgreSQL: its name and the password every nlq process sharing the home uses. */
export interface ServerPassword {
  readonly user: "postgres";
  readonly password: string;
  /** The file it is kept in (`<state>/postgres.pgpass`, mode 0600, libpq's password-file format). */
  readonly file: string;
  /** True when this call generated it (the first start on this home): the banner shows it once. */
  readonly created: boolean;
}

/** `<state>/postgres` → `<state>/postgres.pgpass`: the superuser's password, usable as `PGPASSFILE`. */
export function passwordFile(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.pgpass`;
}

/** Hosts the embedded server (and the proxy in front of it) is reached by; one password-file line each. */
const passwordFileHosts = ["127.0.0.1", "localhost"];

/**
 * The embedded superuser's password: read from `<directory>.pgpass`, or generated (256 bits, base64url, safe in a
 * URL unescaped) and written there with mode 0600 when the file does not exist. Called under the start lock
 * (`server-users.ts`) and written exclusively (`wx`), so processes starting at once agree on one password. The file is libpq's password-file format, so
 * `PGPASSFILE=<file> psql postgresql://postgres@127.0.0.1:<port>/demo` needs no password typed.
 * A file readable by others is tightened to 0600 (libpq ignores such a file); an unreadable one is a typed error.
 */
export function ensureServerPassword(directory: string): ServerPassword {
  const file = passwordFile(directory);
  const password = randomBytes(32).toString("base64url");
  try {
    const descriptor = openSync(file, "wx", 0o600);
    try {
      writeSync(descriptor, passwordFileHosts.map((host) => `${host}:*:*:postgres:${password}\n`).join(""));
    } finally {
      closeSync(descriptor);
    }
    return { user: "postgres", password, file, created: true };
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") {
      throw new EmbeddedPostgresError(`cannot write the embedded PostgreSQL's password file ${file}`, {
        directory,
        cause: error,
      });
    }
  }
  return { user: "postgres", password: readServerPassword(file, directory), file, created: false };
}

function readServerPassword(file: string, directory: string): string {
  let content: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    content = readFileSync(file, "utf8");
  } catch (error) {
    throw new EmbeddedPostgresError(`cannot read the embedded PostgreSQL's password file ${file}`, {
      directory,
      cause: error,
    });
  }
  for (const line of content.split("\n")) {
    const fields = line.trim().split(":");
    if (fields.length === 5 && fields[3] === "postgres" && fields[4] !== "") return fields[4]!;
  }
  throw new EmbeddedPostgresError(
    `the embedded PostgreSQL's password file ${file} holds no postgres line: delete it to generate a new password ` +
      "(it is applied at the next start)",
    { directory },
  );
}
