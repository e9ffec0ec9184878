import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A server that runs on a data directory, read from PostgreSQL's own `postmaster.pid`. */
export interface RunningServer {
  readonly serverProcessId: number;
  readonly port: number;
  /** The nlq process that started it and will stop it, when it still runs; undefined for a leftover. */
  readonly owner: { readonly processId: number; readonly purpose: string } | undefined;
}

/** `<state>/postgres` → `<state>/postgres.owner.json`: which nlq process started the server. */
export function ownerFile(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.owner.json`;
}

/** `<state>/postgres` → `<state>/postgres.log`: the server's own log (appended). */
export function serverLogFile(directory: string): string {
  return `${directory.replace(/[/\\]+$/, "")}.log`;
}

/** The server running on `directory`, or undefined when none does (no or a stale `postmaster.pid`). */
export function runningServer(directory: string): RunningServer | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(directory, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const serverProcessId = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(serverProcessId) || serverProcessId <= 0 || !isRunning(serverProcessId)) return undefined;
  return { serverProcessId, port, owner: liveOwner(directory) };
}

/** Records this process as the owner of the server it started. */
export function writeOwner(directory: string, owner: { processId: number; purpose: string; port: number }): void {
  writeFileSync(ownerFile(directory), `${JSON.stringify({ ...owner, since: new Date().toISOString() })}\n`, {
    mode: 0o600,
  });
}

export function removeOwner(directory: string): void {
  rmSync(ownerFile(directory), { force: true });
}

function liveOwner(directory: string): RunningServer["owner"] {
  try {
    const content = JSON.parse(readFileSync(ownerFile(directory), "utf8")) as {
      processId?: unknown;
      purpose?: unknown;
    };
    if (typeof content.processId !== "number" || !isRunning(content.processId)) return undefined;
    return { processId: content.processId, purpose: String(content.purpose ?? "unknown") };
  } catch {
    return undefined;
  }
}

/** True while a process with this id exists (signal 0 checks without sending anything). */
export function isRunning(processId: number): boolean {
  try {
    process.kill(processId, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === "EPERM";
  }
}
