import { NlqError } from "@nlq/engine";

const metadataStoreErrorMarker = Symbol.for("nlq.error.MetadataStoreError");

/** The metadata store could not be opened, migrated or written. SQLSTATE 58000 (system error). */
export class MetadataStoreError extends NlqError {
  readonly [metadataStoreErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is MetadataStoreError {
    return NlqError.hasMarker(error, metadataStoreErrorMarker);
  }

  /** `pglite` or `postgres`. */
  readonly driver: string;
  constructor(message: string, options: { driver: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.driver = options.driver;
  }
}
