import { VectorDimensionError, VectorStoreArgumentError } from "./vector-store-errors";

const collectionNamePattern = /^[A-Za-z0-9_-]{1,200}$/;

/** Throws unless the collection name is 1-200 letters, digits, `_` or `-` (safe as a Qdrant path segment and a SQL value). */
export function assertCollectionName(collection: string): void {
  if (!collectionNamePattern.test(collection)) {
    throw new VectorStoreArgumentError(
      `invalid vector collection name "${collection}": use 1-200 letters, digits, "_" or "-"`,
      { collection },
    );
  }
}

/** Throws unless `dimensions` is a positive integer. */
export function assertDimensions(collection: string, dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new VectorStoreArgumentError(`vector dimensions must be a positive integer, got ${dimensions}`, {
      collection,
    });
  }
}

/** Throws when a vector's length differs from the collection's dimensions or a component is not finite. */
export function assertVectorLength(collection: string, vector: ArrayLike<number>, dimensions: number): void {
  if (vector.length !== dimensions) {
    throw new VectorDimensionError(
      `vector of length ${vector.length} does not fit collection "${collection}" of ${dimensions} dimensions`,
      { collection, expected: dimensions, actual: vector.length },
    );
  }
  for (let position = 0; position < vector.length; position++) {
    if (!Number.isFinite(vector[position])) {
      throw new VectorStoreArgumentError(`vector component ${position} is not a finite number`, { collection });
    }
  }
}

/** Throws unless `limit` is a non-negative integer. */
export function assertLimit(collection: string, limit: number): void {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new VectorStoreArgumentError(`search limit must be a non-negative integer, got ${limit}`, { collection });
  }
}
