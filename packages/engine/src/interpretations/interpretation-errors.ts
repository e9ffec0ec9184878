import { NlqError } from "../errors/nlq-error";

const interpretationNotFoundErrorMarker = Symbol.for("nlq.error.InterpretationNotFoundError");

/** A pick names no interpretation of the answer (it has none, or the number is out of range). SQLSTATE 22023. */
export class InterpretationNotFoundError extends NlqError {
  readonly [interpretationNotFoundErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is InterpretationNotFoundError {
    return NlqError.hasMarker(error, interpretationNotFoundErrorMarker);
  }

  readonly requested: number;
  readonly available: number;
  constructor(requested: number, available: number) {
    super(
      available === 0
        ? `the answer has no interpretations to pick from (its candidates agreed), so #${requested} names none`
        : `interpretation #${requested} does not exist: pick 1 to ${available}`,
      { code: "22023" },
    );
    this.requested = requested;
    this.available = available;
  }
}
