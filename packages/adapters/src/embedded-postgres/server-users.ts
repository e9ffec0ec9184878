import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { EmbeddedPostgresError } from "./embedded-postgres-error";
import { createLockFile, takeOverStaleLockFile } from "./lock-file";
import { isRunning } from "./process-alive";

/**
 * Who uses the embedded server. Every nlq process that started or attached to it holds one file
 * `<state>/postgres.users/<pid>` (JSON: purpose, since) until it leaves; the server stops when the last user
 * leaves, whichever process started it. Files of processes that no longer run are ignored and removed.
 */
export function usersDirectory(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.users`;
}

/**
 * `<state>/postgres.lock`: held while a process starts, attaches to, leaves or stops the server. It is created whole
 * (the holder's pid written to a private file, then hard-linked to this name, which fails when it exists), so it never
 * exists empty; a lock whose holder died is taken over atomically (`takeOverStaleLock`).
 */
export function lifetimeLockFile(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.lock`;
}

export interface ServerUserEntry {
  readonly processId: number;
  readonly purpose: string;
}

/** Registers `processId` (default: this process) as a user of the server. */
export function registerUser(directory: string, purpose: string, processId: number = process.pid): void {
  const users = usersDirectory(directory);
  mkdirSync(users, { recursive: true, mode: 0o700 });
  const descriptor = openSync(path.join(users, String(processId)), "w", 0o600);
  try {
    writeSync(descriptor, `${JSON.stringify({ purpose, since: new Date().toISOString() })}\n`);
  } finally {
    closeSync(descriptor);
  }
}

/** Removes `processId`'s registration (default: this process). */
export function unregisterUser(directory: string, processId: number = process.pid): void {
  rmSync(path.join(usersDirectory(directory), String(processId)), { force: true });
}

/** The registered users that still run (stale files, e.g. of a SIGKILLed process, are removed). */
export function liveUsers(directory: string): ServerUserEntry[] {
  const users = usersDirectory(directory);
  let names: string[];
  try {
    names = readdirSync(users);
  } catch {
    return [];
  }
  const live: ServerUserEntry[] = [];
  for (const name of names) {
    const processId = Number(name);
    if (!Number.isInteger(processId) || processId <= 0) continue;
    if (!isRunning(processId)) {
      rmSync(path.join(users, name), { force: true });
      continue;
    }
    let purpose = "unknown";
    try {
      purpose = String((JSON.parse(readFileSync(path.join(users, name), "utf8")) as { purpose?: unknown }).purpose);
    } catch {}
    live.push({ processId, purpose });
  }
  return live;
}

const lockTimeoutMilliseconds = 90_000;

/**
 * Runs `action` holding the lifetime lock of `directory`, so that starting, attaching, leaving and stopping never
 * interleave (a process attaching while the last user stops the server would otherwise lose it). A lock whose
 * holder no longer runs is taken over. Waits up to 90 s (a stop takes at most 30 s plus a start's 60 s).
 */
export async function withLifetimeLock<T>(directory: string, action: () => Promise<T>): Promise<T> {
  const file = lifetimeLockFile(directory);
  mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + lockTimeoutMilliseconds;
  for (;;) {
    if (tryLock(file)) break;
    if (Date.now() > deadline) {
      throw new EmbeddedPostgresError(
        `the embedded PostgreSQL in ${directory} is being started or stopped by process ${lockHolder(file)} for too long ` +
          `(delete ${file} if no such process runs)`,
        { directory },
      );
    }
    await sleep(50);
  }
  try {
    return await action();
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Takes the lock once without waiting (for a process `exit` handler, which cannot wait); returns whether it did.
 * The caller removes `lifetimeLockFile(directory)` afterwards.
 */
export function tryLifetimeLock(directory: string): boolean {
  return tryLock(lifetimeLockFile(directory));
}

function tryLock(file: string): boolean {
  if (createLockFile(file, String(process.pid))) return true;
  const holder = lockHolder(file);
  // Taken over only when the file names a process that no longer runs; the next attempt then creates it anew.
  if (holder !== undefined && holder !== process.pid && !isRunning(holder)) takeOverStaleLock(file, holder);
  return false;
}

/**
 * Removes the lock `file` that `deadHolder` left, atomically against every other process that saw the same stale
 * lock (`takeOverStaleLockFile`). Returns whether this call removed the lock.
 */
export function takeOverStaleLock(file: string, deadHolder: number): boolean {
  return takeOverStaleLockFile(file, deadHolder, lockHolder);
}

function lockHolder(file: string): number | undefined {
  try {
    const holder = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(holder) && holder > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}
