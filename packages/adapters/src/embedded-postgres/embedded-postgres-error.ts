import { NlqError } from "@nlq/engine";

/** The embedded PostgreSQL could not be initialised, started or stopped. SQLSTATE 58000 (system error). */
export class EmbeddedPostgresError extends NlqError {
  /** The data directory concerned. */
  readonly directory: string;
  constructor(message: string, options: { directory: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.directory = options.directory;
  }
}

/**
 * The data directory is served by a PostgreSQL another live nlq process uses (`nlq start`, or a standalone
 * `nlq ask`/`index`/`eval`/`proxy`). SQLSTATE 55006 (object in use).
 */
export class EmbeddedPostgresInUseError extends NlqError {
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
