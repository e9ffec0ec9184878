import { readFileSync } from "node:fs";
import path from "node:path";
import { isRunning } from "./process-alive";
import { liveUsers, type ServerUserEntry } from "./server-users";

export { isRunning };

/** A server that runs on a data directory, read from PostgreSQL's own `postmaster.pid`. */
export interface RunningServer {
  readonly serverProcessId: number;
  readonly port: number;
  /** The nlq processes using it (`server-users.ts`); empty for a leftover whose users all died. */
  readonly users: readonly ServerUserEntry[];
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
  return { serverProcessId, port, users: liveUsers(directory) };
}
