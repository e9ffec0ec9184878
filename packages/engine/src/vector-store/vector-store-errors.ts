import { NlqError } from "../errors";

/** A vector store operation failed (backend unreachable, bad response). SQLSTATE 58000 (system error). */
export class VectorStoreError extends NlqError {
  /** The collection the operation addressed, when there is one. */
  readonly collection: string | undefined;
  constructor(message: string, options: { collection?: string; code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? "58000", cause: options.cause });
    this.collection = options.collection;
  }
}

/** The collection does not exist (search, upsert or count before `ensureCollection`). SQLSTATE 42P01 (undefined_table). */
export class VectorCollectionNotFoundError extends VectorStoreError {
  constructor(collection: string, options: { cause?: unknown } = {}) {
    super(`vector collection "${collection}" does not exist`, { collection, code: "42P01", cause: options.cause });
  }
}

/** A vector's length differs from the collection's dimensions, or a collection exists with other dimensions. SQLSTATE 22000 (data_exception). */
export class VectorDimensionError extends VectorStoreError {
  readonly expected: number;
  readonly actual: number;
  constructor(message: string, options: { collection: string; expected: number; actual: number }) {
    super(message, { collection: options.collection, code: "22000" });
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

/** Invalid arguments (collection name, limit, empty vector). SQLSTATE 22023 (invalid_parameter_value). */
export class VectorStoreArgumentError extends VectorStoreError {
  constructor(message: string, options: { collection?: string } = {}) {
    super(message, { ...options, code: "22023" });
  }
}
