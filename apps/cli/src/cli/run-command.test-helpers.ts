import { Command } from "commander";
import type { CommandOutput } from "./command-output";

/** What an in-process command run printed, and the exit code it set (undefined: none, i.e. success). */
export interface CommandRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | string | undefined;
}

/**
 * Test helper: registers one command on a fresh program (exitOverride), runs `nlq <argv>` in this process with its
 * output captured, and restores `process.exitCode`. `options` are the command's other output options (environment,
 * resolveModel, …).
 */
export async function runCommand<Output extends CommandOutput>(
  register: (program: Command, output: Output) => void,
  argv: readonly string[],
  options: Omit<Output, keyof CommandOutput>,
): Promise<CommandRun> {
  let stdout = "";
  let stderr = "";
  const program = new Command().exitOverride();
  register(program, {
    ...options,
    write: (text: string) => {
      stdout += text;
    },
    writeError: (text: string) => {
      stderr += text;
    },
  } as Output);
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(["node", "nlq", ...argv]);
    return { stdout, stderr, exitCode: process.exitCode };
  } finally {
    process.exitCode = previousExitCode;
  }
}
