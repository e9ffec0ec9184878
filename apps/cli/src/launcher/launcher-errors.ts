import { ConfigurationError, NlqError } from "@nlq/engine";
import { type PortVariable, portVariables } from "./launcher-settings";

const portInUseErrorMarker = Symbol.for("nlq.error.PortInUseError");

/** A port nlq start needs is taken. The message names the variable that moves it. */
export class PortInUseError extends ConfigurationError {
  readonly [portInUseErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is PortInUseError {
    return NlqError.hasMarker(error, portInUseErrorMarker);
  }

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

const launcherErrorMarker = Symbol.for("nlq.error.LauncherError");

/** A part of `nlq start` (web app build, child process) failed. */
export class LauncherError extends ConfigurationError {
  readonly [launcherErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is LauncherError {
    return NlqError.hasMarker(error, launcherErrorMarker);
  }
}

/** True for Node's "address in use" listen error. */
export function isAddressInUse(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EADDRINUSE";
}
