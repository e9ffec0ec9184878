import { randomBytes } from "node:crypto";
import { linkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isRunning } from "./process-alive";

/**
 * Creates the lock `file` holding `content` whole: written to a private draft first, then hard-linked to `file` (which
 * fails when it exists), so no process ever sees it empty or half-written. Returns false when `file` exists.
 */
export function createLockFile(file: string, content: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(draft, content, { flag: "wx", mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    return false;
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Removes the lock `file` that `deadHolder` left (`holderOf` reads the holder's process id from a lock file),
 * atomically against every other process that saw the same stale lock (each of them may act on what it read long
 * ago). The taker first claims this very file: a hard link `<file>.stale-<holder>-<inode>` (link fails when the name
 * exists, so one process claims a given stale lock). Then it re-checks what it claimed: the inode it saw, still naming
 * `deadHolder`, who still does not run. Only then is `file` removed, and the claim after it. A taker whose observation
 * is out of date claims nothing, or claims a live lock and lets it go, never removing it: only a claimer removes a
 * lock naming a dead process. Returns whether this call removed the lock (the caller still has to create its own,
 * competing as usual).
 */
export function takeOverStaleLockFile(
  file: string,
  deadHolder: number,
  holderOf: (file: string) => number | undefined,
): boolean {
  let inode: bigint;
  try {
    inode = statSync(file, { bigint: true }).ino;
  } catch {
    return false;
  }
  const claim = `${file}.stale-${deadHolder}-${inode}`;
  try {
    linkSync(file, claim);
  } catch {
    return false;
  }
  try {
    const claimed = statSync(claim, { bigint: true }).ino === inode && holderOf(claim) === deadHolder;
    if (!claimed || isRunning(deadHolder) || statSync(file, { bigint: true }).ino !== inode) return false;
    rmSync(file);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(claim, { force: true });
  }
}
