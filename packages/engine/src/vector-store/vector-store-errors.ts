import { NlqError } from "../errors/nlq-error";

const vectorStoreErrorMarker = Symbol.for("nlq.error.VectorStoreError");

/** A vector store operation failed (backend unreachable, bad response). SQLSTATE 58000 (system error). */
export class VectorStoreError extends NlqError {
  readonly [vectorStoreErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is VectorStoreError {
    return NlqError.hasMarker(error, vectorStoreErrorMarker);
  }

  /** The collection the operation addressed, when there is one. */
  readonly collection: string | undefined;
  constructor(message: string, options: { collection?: string; code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? "58000", cause: options.cause });
    this.collection = options.collection;
  }
}

const vectorCollectionNotFoundErrorMarker = Symbol.for("nlq.error.VectorCollectionNotFoundError");

/** The collection does not exist (search, upsert or count before `ensureCollection`). SQLSTATE 42P01 (undefined_table). */
export class VectorCollectionNotFoundError extends VectorStoreError {
  readonly [vectorCollectionNotFoundErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is VectorCollectionNotFoundError {
    return NlqError.hasMarker(error, vectorCollectionNotFoundErrorMarker);
  }

  constructor(collection: string, options: { cause?: unknown } = {}) {
    super(`vector collection "${collection}" does not exist`, { collection, code: "42P01", cause: options.cause });
  }
}

const vectorDimensionErrorMarker = Symbol.for("nlq.error.VectorDimensionError");

/** A vector's length differs from the collection's dimensions, or a collection exists with other dimensions. SQLSTATE 22000 (data_exception). */
export class VectorDimensionError extends VectorStoreError {
  readonly [vectorDimensionErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is VectorDimensionError {
    return NlqError.hasMarker(error, vectorDimensionErrorMarker);
  }

  readonly expected: number;
  readonly actual: number;
  constructor(message: string, options: { collection: string; expected: number; actual: number }) {
    super(message, { collection: options.collection, code: "22000" });
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

const vectorStoreArgumentErrorMarker = Symbol.for("nlq.error.VectorStoreArgumentError");

/** Invalid arguments (collection name, limit, empty vector). SQLSTATE 22023 (invalid_parameter_value). */
export class VectorStoreArgumentError extends VectorStoreError {
  readonly [vectorStoreArgumentErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is VectorStoreArgumentError {
    return NlqError.hasMarker(error, vectorStoreArgumentErrorMarker);
  }

  constructor(message: string, options: { collection?: string } = {}) {
    super(message, { ...options, code: "22023" });
  }
}
