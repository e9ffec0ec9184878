import { NlqError } from "@nlq/engine";

const embeddedPostgresErrorMarker = Symbol.for("nlq.error.EmbeddedPostgresError");

/** The embedded PostgreSQL could not be initialised, started or stopped. SQLSTATE 58000 (system error). */
export class EmbeddedPostgresError extends NlqError {
  readonly [embeddedPostgresErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is EmbeddedPostgresError {
    return NlqError.hasMarker(error, embeddedPostgresErrorMarker);
  }

  /** The data directory concerned. */
  readonly directory: string;
  constructor(message: string, options: { directory: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.directory = options.directory;
  }
}

const embeddedPostgresInUseErrorMarker = Symbol.for("nlq.error.EmbeddedPostgresInUseError");

/**
 * The data directory is served by a PostgreSQL another live nlq process uses (`nlq start`, or a standalone
 * `nlq ask`/`index`/`eval`/`proxy`). SQLSTATE 55006 (object in use).
 */
export class EmbeddedPostgresInUseError extends NlqError {
  readonly [embeddedPostgresInUseErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is EmbeddedPostgresInUseError {
    return NlqError.hasMarker(error, embeddedPostgresInUseErrorMarker);
  }

  readonly directory: string;
  readonly ownerProcessId: number;
  readonly port: number;
  constructor(options: { directory: string; ownerProcessId: number; ownerPurpose: string; port: number }) {
    super(
      `the embedded PostgreSQL in ${options.directory} is already running on port ${options.port}, used by ` +
        `process ${options.ownerProcessId} (${options.ownerPurpose}); stop that process first`,
      { code: "55006" },
    );
    this.directory = options.directory;
    this.ownerProcessId = options.ownerProcessId;
    this.port = options.port;
  }
}
