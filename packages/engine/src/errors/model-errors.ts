import { NlqError } from "./nlq-error";

/** Errors of the language models: none configured, a call that failed, output that did not match. */

const modelConfigurationErrorMarker = Symbol.for("nlq.error.ModelConfigurationError");

/** No language model is configured, or a model reference cannot be resolved. SQLSTATE 55000 (object not in prerequisite state). */
export class ModelConfigurationError extends NlqError {
  readonly [modelConfigurationErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ModelConfigurationError {
    return NlqError.hasMarker(error, modelConfigurationErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "55000", ...options });
  }
}

const modelCallErrorMarker = Symbol.for("nlq.error.ModelCallError");

/** A language-model call failed (network, provider error, budget, scripted response missing). SQLSTATE 58000 (system error). */
export class ModelCallError extends NlqError {
  readonly [modelCallErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ModelCallError {
    return NlqError.hasMarker(error, modelCallErrorMarker);
  }

  readonly step: string;
  constructor(message: string, options: { step: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.step = options.step;
  }
}

const modelOutputErrorMarker = Symbol.for("nlq.error.ModelOutputError");

/** The model's output did not match the step's schema. SQLSTATE 58000. */
export class ModelOutputError extends NlqError {
  readonly [modelOutputErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ModelOutputError {
    return NlqError.hasMarker(error, modelOutputErrorMarker);
  }

  readonly step: string;
  readonly output: string;
  constructor(message: string, options: { step: string; output: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.step = options.step;
    this.output = truncate(options.output);
  }
}

function truncate(text: string): string {
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
