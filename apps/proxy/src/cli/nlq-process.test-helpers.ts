import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const binary = path.resolve(import.meta.dirname, "../../bin/nlq.mjs");
const running = new Set<ChildProcess>();

/** A spawned `nlq` process: its stdout and stderr collected as one text, and its exit code once it exits. */
export interface NlqProcess {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

/** Spawns the real `nlq` command (`apps/proxy/bin/nlq.mjs`) with `environment` over this process's environment. */
export function spawnNlq(commandArguments: readonly string[], environment: Record<string, string>): NlqProcess {
  const child = spawn(process.execPath, [binary, ...commandArguments], {
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** Kills (SIGKILL) every `nlq` process a test spawned that is still running: call it in `afterAll`. */
export function killSpawnedNlqProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}
