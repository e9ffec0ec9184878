/**
 * Typed errors of nlq. Every error the core throws is an `NlqError` with a narrow subclass, a stable `code` (a
 * PostgreSQL SQLSTATE, so the proxy can forward it unchanged) and context.
 *
 * As the AI SDK's `AISDKError`: each class carries its own `Symbol.for("nlq.error.<Name>")` marker, set on every
 * instance of it and of its subclasses, and checks it in a static `isInstance`. `instanceof` fails when two copies of a
 * package are loaded (a bundled app and a hoisted dependency); the marker is found by `Symbol.for`'s global registry
 * whichever copy made the error. Check nlq's errors with `X.isInstance(error)`.
 */
const nlqErrorMarker = Symbol.for("nlq.error.NlqError");

export class NlqError extends Error {
  readonly [nlqErrorMarker] = true;
  /** SQLSTATE sent to wire clients. */
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "XX000";
  }

  /** True for an `NlqError` (any subclass) from any copy of nlq, not only this module's. */
  static isInstance(error: unknown): error is NlqError {
    return NlqError.hasMarker(error, nlqErrorMarker);
  }

  /** Whether `error` is an object carrying `marker` set to true (each class's `isInstance` asks for its own marker). */
  protected static hasMarker(error: unknown, marker: symbol): boolean {
    return typeof error === "object" && error !== null && (error as { [key: symbol]: unknown })[marker] === true;
  }
}
