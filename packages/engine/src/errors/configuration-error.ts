import { NlqError } from "./nlq-error";

const configurationErrorMarker = Symbol.for("nlq.error.ConfigurationError");

/** Configuration (environment variables, options) is invalid. SQLSTATE F0000 (config file error). */
export class ConfigurationError extends NlqError {
  readonly [configurationErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ConfigurationError {
    return NlqError.hasMarker(error, configurationErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "F0000", ...options });
  }
}
