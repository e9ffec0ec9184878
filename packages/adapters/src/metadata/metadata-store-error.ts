import { NlqError } from "@nlq/engine";

/** The metadata store could not be opened, migrated or written. SQLSTATE 58000 (system error). */
export class MetadataStoreError extends NlqError {
  /** `pglite` or `postgres`. */
  readonly driver: string;
  constructor(message: string, options: { driver: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.driver = options.driver;
  }
}
