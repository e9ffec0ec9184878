import { MessageType } from "../protocol/frontend-messages";

/** Backend CopyInResponse (`G`): the server waits for the client's CopyData. */
const COPY_IN_RESPONSE = MessageType.copyInResponse;
/** Backend messages that end COPY FROM STDIN: CommandComplete (`C`), ErrorResponse (`E`), ReadyForQuery (`Z`). */
const COPY_ENDS = new Set<number>([0x43, MessageType.errorResponse, MessageType.readyForQuery]);

/**
 * Whether the upstream is in COPY FROM STDIN (the twin of the native relay's `copy_in`). Meanwhile PostgreSQL takes
 * every client message as part of the COPY: a Query or Parse is a protocol violation (ERROR 08P01 "unexpected message
 * type 0x51 during COPY from stdin", then FATAL 08P01, and the session ends), a Sync or Flush is ignored. So the
 * connection passes client messages on as they are then: no question is looked for, none owes a ReadyForQuery.
 */
export class CopyInState {
  #active = false;

  get active(): boolean {
    return this.#active;
  }

  /** Whether an upstream message of `type` must be handed over whole to keep the state (cheap, header only). */
  inspects(type: number): boolean {
    return type === COPY_IN_RESPONSE || (this.#active && COPY_ENDS.has(type));
  }

  /** Notes one whole upstream message's type. */
  note(type: number): void {
    if (type === COPY_IN_RESPONSE) this.#active = true;
    else if (COPY_ENDS.has(type)) this.#active = false;
  }

  /** Takes over what the native relay tracked. */
  restore(active: boolean): void {
    this.#active = active;
  }
}
