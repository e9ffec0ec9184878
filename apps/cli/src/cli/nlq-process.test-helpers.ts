import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

// The TypeScript sources through tsx, as `bin/nlq.mjs` runs them when the build is stale: tests exercise the code
// they sit beside, whatever the state of apps/cli/dist (compiled-cli.test.ts covers the build and the launcher).
const sources = path.resolve(import.meta.dirname, "main.ts");
const running = new Set<ChildProcess>();

/** A spawned `nlq` process: its stdout and stderr collected as one text, and its exit code once it exits. */
export interface NlqProcess {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

/** Spawns the real `nlq` command (its sources, through tsx) with `environment` over this process's environment. */
export function spawnNlq(commandArguments: readonly string[], environment: Record<string, string>): NlqProcess {
  const child = spawn(process.execPath, ["--import", "tsx", sources, ...commandArguments], {
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
