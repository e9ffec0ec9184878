import { NlqError } from "@nlq/engine";

/** A pick (`/* nl#2 *\/;`) on a connection that has answered no question yet. SQLSTATE 22023. */
export class NoAnswerToPickError extends NlqError {
  constructor(number: number, pickExample: string) {
    super(
      `nothing to pick interpretation #${number} from: this connection has answered no question yet (ask one first, then pick with ${pickExample})`,
      { code: "22023" },
    );
  }
}
