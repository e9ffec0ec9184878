import { MessageType } from "../protocol/frontend-messages";

/** Backend CopyInResponse (`G`): the server waits for the client's CopyData. */
const COPY_IN_RESPONSE = MessageType.copyInResponse;
/** Backend messages that end COPY FROM STDIN: CommandComplete (`C`), ErrorResponse (`E`), ReadyForQuery (`Z`). */
const COPY_ENDS = new Set<number>([0x43, MessageType.errorResponse, MessageType.readyForQuery]);
/** Frontend CopyDone (`c`) and CopyFail (`f`): the client's last message of the COPY. */
const CLIENT_COPY_ENDS = new Set<number>([0x63, 0x66]);

/**
 * Whether the upstream is in COPY FROM STDIN (the twin of the native relay's `copy_in`). Meanwhile PostgreSQL takes
 * every client message as part of the COPY: a Query or Parse is a protocol violation (ERROR 08P01 "unexpected message
 * type 0x51 during COPY from stdin", then FATAL 08P01, and the session ends), a Sync or Flush is ignored. So the
 * connection passes client messages on as they are then: no question is looked for, none owes a ReadyForQuery. The
 * client's CopyDone or CopyFail ends it: PostgreSQL reads what follows as usual.
 *
 * A COPY started in the extended protocol (libpq's PQexecParams: Parse, Bind, Describe, Execute, Sync) is read from the
 * message after its Execute: the Sync the client sent with it is part of the COPY, ignored, and owes no ReadyForQuery
 * after all; once the COPY is over PostgreSQL waits for another Sync (libpq sends one after CopyDone or CopyFail) and
 * answers that one. So the Syncs sent since the client's last Execute or Query are counted here
 * (`syncsAfterCommand`), and a CopyInResponse says how many of the ReadyForQuery counted are not owed (`note`).
 */
export class CopyInState {
  #active = false;
  #syncsAfterCommand = 0;

  get active(): boolean {
    return this.#active;
  }

  /** Syncs sent (outside COPY) since the client's last Execute or Query: part of the COPY, if that command starts one. */
  get syncsAfterCommand(): number {
    return this.#syncsAfterCommand;
  }

  /** Whether an upstream message of `type` must be handed over whole to keep the state (cheap, header only). */
  inspects(type: number): boolean {
    return type === COPY_IN_RESPONSE || (this.#active && COPY_ENDS.has(type));
  }

  /** Whether a client message of `type` must be handed over whole to keep the state: its end of the COPY. */
  inspectsClient(type: number): boolean {
    return this.#active && CLIENT_COPY_ENDS.has(type);
  }

  /**
   * Notes one whole upstream message's type. Returns how many of the ReadyForQuery messages counted are not owed after
   * all: at a CopyInResponse, the Syncs sent after the command that started the COPY (PostgreSQL ignores them).
   */
  note(type: number): number {
    if (type === COPY_IN_RESPONSE) {
      this.#active = true;
      const ignored = this.#syncsAfterCommand;
      this.#syncsAfterCommand = 0;
      return ignored;
    }
    if (COPY_ENDS.has(type)) this.#active = false;
    return 0;
  }

  /** The client sent a command upstream (Execute, Query, FunctionCall): the Syncs it sends next follow it. */
  commandSent(): void {
    this.#syncsAfterCommand = 0;
  }

  /** The client sent a Sync upstream (outside COPY). */
  syncSent(): void {
    this.#syncsAfterCommand++;
  }

  /** A whole client message passed on during COPY: its CopyDone or CopyFail ends the COPY. */
  noteClient(type: number): void {
    if (this.#active && CLIENT_COPY_ENDS.has(type)) this.#active = false;
  }

  /** Takes over what the native relay tracked. */
  restore(active: boolean, syncsAfterCommand = 0): void {
    this.#active = active;
    this.#syncsAfterCommand = syncsAfterCommand;
  }
}
