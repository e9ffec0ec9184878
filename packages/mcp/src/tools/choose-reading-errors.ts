import { NlqError } from "@nlq/engine";

const noAnswerToChooseFromErrorMarker = Symbol.for("nlq.error.NoAnswerToChooseFromError");

/** `choose_reading` before any `ask` answered in this MCP session. SQLSTATE 22023. */
export class NoAnswerToChooseFromError extends NlqError {
  readonly [noAnswerToChooseFromErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is NoAnswerToChooseFromError {
    return NlqError.hasMarker(error, noAnswerToChooseFromErrorMarker);
  }

  constructor(number: number) {
    super(
      `nothing to choose reading #${number} from: no ask has answered in this session yet (call ask first, then choose_reading with one of its interpretations' numbers)`,
      { code: "22023" },
    );
  }
}
