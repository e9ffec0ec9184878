import { MessageType } from "../protocol/frontend-messages";

/** What the connection does with one upstream reply to a split query's ordinary statements. */
export type PassedStatementReply =
  /** Pass it to the client. */
  | "forward"
  /** A COPY FROM STDIN (or COPY BOTH) started: refuse it upstream with CopyFail (the client's input is held). */
  | "refuse-copy"
  /** Their ReadyForQuery: the run is over (`succeeded`); it is not passed on, the whole query's own ends it later. */
  | "ready";

/** Replies the run acts on; the rest pass to the client as bytes, never held whole. */
const ACTED_ON = new Set<number>([
  MessageType.copyInResponse,
  MessageType.copyBothResponse,
  MessageType.errorResponse,
  MessageType.readyForQuery,
]);

/**
 * Ordinary statements of a split query running upstream as one simple Query: their replies pass through until their
 * ReadyForQuery, which ends the run instead; the first ErrorResponse makes it a failed run.
 */
export class StatementsInFlight {
  readonly #done: (succeeded: boolean) => void;
  #failed = false;

  constructor(done: (succeeded: boolean) => void) {
    this.#done = done;
  }

  /** Whether a reply of `type` must be handed over whole (`receive`); the others are passed on as they stream. */
  static inspects(type: number): boolean {
    return ACTED_ON.has(type);
  }

  receive(type: number): PassedStatementReply {
    if (type === MessageType.copyInResponse || type === MessageType.copyBothResponse) return "refuse-copy";
    if (type === MessageType.errorResponse) this.#failed = true;
    return type === MessageType.readyForQuery ? "ready" : "forward";
  }

  /** Ends the run: at its ReadyForQuery, or failed when the connection closed first. */
  finish(closed = false): void {
    this.#done(!closed && !this.#failed);
  }
}
