import { ConfigurationError } from "@nlq/engine";
import { type PortVariable, portVariables } from "./launcher-settings";

/** A port nlq start needs is taken. The message names the variable that moves it. */
export class PortInUseError extends ConfigurationError {
  readonly port: number;
  readonly variable: PortVariable;
  constructor(options: { port: number; host: string; variable: PortVariable; cause?: unknown }) {
    super(
      `port ${options.port} on ${options.host} (${portVariables[options.variable].part}) is already in use: ` +
        `stop what uses it or set ${options.variable} to a free port, e.g. ${options.variable}=${options.port + 1} npm start`,
      { cause: options.cause },
    );
    this.port = options.port;
    this.variable = options.variable;
  }
}

/** A part of `nlq start` (web app build, child process) failed. */
export class LauncherError extends ConfigurationError {}

/** True for Node's "address in use" listen error. */
export function isAddressInUse(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EADDRINUSE";
}
