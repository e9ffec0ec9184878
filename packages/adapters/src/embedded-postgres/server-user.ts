import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, statSync } from "node:fs";
import path from "node:path";
import { EmbeddedPostgresError } from "./embedded-postgres-error";

/** The operating-system user the server runs as: undefined = this process's own user. */
export interface ServerUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/**
 * PostgreSQL refuses to run as root. As root, the server runs as the `postgres` user (which must exist: Debian's
 * postgresql packages and the official images create it); as anyone else, as that user.
 */
export function serverUser(directory: string): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { name: "postgres", uid, gid };
  } catch (error) {
    throw new EmbeddedPostgresError(
      "PostgreSQL does not run as root and there is no postgres user to run it as: create one " +
        "(useradd --system --user-group postgres) or run nlq as an ordinary user",
      { directory, cause: error },
    );
  }
}

/**
 * Makes `directory` usable by `user`: owned by it, and every ancestor searchable by it. An ancestor that is not
 * (e.g. `mktemp -d`'s mode 700) gets the search bit for others (`o+x`, no listing) when it lies inside
 * `grantBelow`; above that nothing is changed and the error names the directory to fix.
 */
export function prepareDirectoryForUser(directory: string, user: ServerUser, grantBelow: string): void {
  chownSync(directory, user.uid, user.gid);
  chmodSync(directory, 0o700);
  const boundary = path.resolve(grantBelow);
  for (let ancestor = path.dirname(directory); ; ancestor = path.dirname(ancestor)) {
    const status = statSync(ancestor);
    const searchable =
      (status.mode & 0o001) !== 0 ||
      (status.uid === user.uid && (status.mode & 0o100) !== 0) ||
      (status.gid === user.gid && (status.mode & 0o010) !== 0);
    if (!searchable) {
      const inside = ancestor === boundary || ancestor.startsWith(`${boundary}${path.sep}`);
      if (!inside) {
        throw new EmbeddedPostgresError(
          `the postgres user cannot reach ${directory}: ${ancestor} is not searchable by it ` +
            `(chmod o+x ${ancestor}, or set NLQ_HOME elsewhere)`,
          { directory },
        );
      }
      chmodSync(ancestor, status.mode | 0o001);
    }
    if (ancestor === path.dirname(ancestor)) return;
  }
}
