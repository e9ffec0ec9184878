import { NlqError } from "@nlq/engine";

const materialiseErrorMarker = Symbol.for("nlq.error.AmbiqtMaterialiseError");

/**
 * Why one AmbiQT example cannot be made real: its schema change does not fit the Spider database (a name missing or
 * taken), or its readings do not run or return the same rows. The loader drops the example and reports the reason.
 */
export class AmbiqtMaterialiseError extends NlqError {
  readonly [materialiseErrorMarker] = true;

  /** True for an instance of this class made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is AmbiqtMaterialiseError {
    return NlqError.hasMarker(error, materialiseErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "22023", ...options });
  }
}
