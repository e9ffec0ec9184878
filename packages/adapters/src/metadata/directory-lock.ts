import { readFileSync, rmSync } from "node:fs";
import { NlqError } from "@nlq/engine";
import { createLockFile, takeOverStaleLockFile } from "../embedded-postgres/lock-file";
import { isRunning } from "../embedded-postgres/process-alive";

const directoryInUseErrorMarker = Symbol.for("nlq.error.DirectoryInUseError");

/** A PGlite directory is already open in another process (or twice in this one). SQLSTATE 55006 (object in use). */
export class DirectoryInUseError extends NlqError {
  readonly [directoryInUseErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is DirectoryInUseError {
    return NlqError.hasMarker(error, directoryInUseErrorMarker);
  }

  readonly directory: string;
  readonly processId: number;
  constructor(options: { directory: string; processId: number; purpose: string }) {
    super(
      `${options.directory} is already open in process ${options.processId} (${options.purpose}); a PGlite directory ` +
        "can be used by one process at a time. Stop that process, or connect through the URL nlq start prints " +
        `(NLQ_METADATA_URL). If no such process runs, delete ${lockPath(options.directory)}.`,
      { code: "55006" },
    );
    this.directory = options.directory;
    this.processId = options.processId;
  }
}

export interface DirectoryLock {
  /** Removes the lock file. Idempotent. */
  release(): void;
}

/**
 * Marks `directory` as opened by this process with a sibling `<directory>.lock` file holding the pid, created whole
 * (`createLockFile`: never seen empty). A lock left by a process that no longer runs is taken over atomically
 * (`takeOverStaleLockFile`: of the processes that saw it stale, only one removes it, and never once it was replaced by
 * a live one). Throws `DirectoryInUseError` otherwise, and for a lock file that names no process (delete it by hand).
 */
export function acquireDirectoryLock(directory: string, purpose: string): DirectoryLock {
  const file = lockPath(directory);
  const content = JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() });
  let holder: { pid: number; purpose: string } | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createLockFile(file, content)) {
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    }
    holder = readHolder(file);
    if (holder !== undefined && isRunning(holder.pid)) {
      throw new DirectoryInUseError({ directory, processId: holder.pid, purpose: holder.purpose });
    }
    if (holder !== undefined) takeOverStaleLockFile(file, holder.pid, (lock) => readHolder(lock)?.pid);
  }
  throw new DirectoryInUseError({ directory, processId: holder?.pid ?? -1, purpose: holder?.purpose ?? "unknown" });
}

function lockPath(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.lock`;
}

function readHolder(file: string): { pid: number; purpose: string } | undefined {
  try {
    const content = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown; purpose?: unknown };
    return typeof content.pid === "number"
      ? { pid: content.pid, purpose: String(content.purpose ?? "unknown") }
      : undefined;
  } catch {
    return undefined;
  }
}
