import { NlqError } from "@nlq/engine";
import { USAGE_EXIT_CODE, UsageError } from "./cli-input";

/** Where a command writes; tests pass their own sinks. */
export interface CommandOutput {
  /** Standard output: the result. Default: process.stdout. */
  readonly write: (text: string) => void;
  /** Standard error: progress lines and errors. Default: process.stderr. */
  readonly writeError: (text: string) => void;
}

/** The process's own stdout and stderr. */
export const standardOutput: CommandOutput = {
  write: (text) => process.stdout.write(text),
  writeError: (text) => process.stderr.write(text),
};

/**
 * A command's failure as one line: a usage error by its message, any other typed nlq error with its SQLSTATE,
 * anything else by its message.
 */
export function describeCommandError(error: unknown): string {
  if (UsageError.isInstance(error)) return error.message;
  if (NlqError.isInstance(error)) return `${error.message} (SQLSTATE ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Refuses the command's input: `nlq <command>: <message>` on stderr, exit code `USAGE_EXIT_CODE`. */
export function refuseInput(command: string, error: unknown, output: CommandOutput = standardOutput): void {
  output.writeError(`nlq ${command}: ${describeCommandError(error)}\n`);
  process.exitCode = USAGE_EXIT_CODE;
}
