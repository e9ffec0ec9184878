import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const watchdogScript = path.join(import.meta.dirname, "parent-watchdog.mjs");

/** A child started in its own process group, so stopping it also stops everything it started. */
export interface ChildProcessGroup {
  readonly child: ChildProcess;
  /** Resolves with the command's exit code (128 + signal number when a signal ended it; SIGKILL by name). */
  readonly exited: Promise<number | string>;
  /** SIGTERM to the whole group; SIGKILL after `graceMilliseconds` (default 10000). Resolves when it exited. */
  stop(graceMilliseconds?: number): Promise<void>;
}

/**
 * Spawns `command` detached (its own process group: Ctrl-C in the terminal does not reach it, the
 * launcher stops it in order) with stdout/stderr lines forwarded to `onLine`. A small watchdog
 * (`parent-watchdog.mjs`) leads the group and ends it if this process dies first.
 */
export function spawnProcessGroup(
  command: string,
  commandArguments: readonly string[],
  options: { readonly cwd: string; readonly environment: NodeJS.ProcessEnv; readonly onLine: (line: string) => void },
): ChildProcessGroup {
  // The watchdog leads the group and ends it should this process die without stopping it.
  const child = spawn(process.execPath, [watchdogScript, command, ...commandArguments], {
    cwd: options.cwd,
    env: options.environment,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  // The IPC channel exists only so the watchdog notices our death; it must not keep us alive.
  child.channel?.unref();
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") options.onLine(line);
    });
    stream?.on("end", () => {
      if (pending.trim() !== "") options.onLine(pending);
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("error", (error) => {
      options.onLine(`cannot start ${command}: ${error.message}`);
      resolve("spawn-error");
    });
  });
  let finished = false;
  void exited.then(() => {
    finished = true;
  });
  return {
    child,
    exited,
    async stop(graceMilliseconds = 10_000) {
      if (finished || child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), graceMilliseconds);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
      // Leftover grandchildren of the group (a worker that ignored SIGTERM) go too.
      signalGroup(child.pid, "SIGKILL");
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
