import { NlqError } from "@nlq/engine";

const noAnswerToPickErrorMarker = Symbol.for("nlq.error.NoAnswerToPickError");

/** A pick (`/* nl#2 *\/;`) on a connection that has answered no question yet. SQLSTATE 22023. */
export class NoAnswerToPickError extends NlqError {
  readonly [noAnswerToPickErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is NoAnswerToPickError {
    return NlqError.hasMarker(error, noAnswerToPickErrorMarker);
  }

  constructor(number: number, pickExample: string) {
    super(
      `nothing to pick interpretation #${number} from: this connection has answered no question yet (ask one first, then pick with ${pickExample})`,
      { code: "22023" },
    );
  }
}
