import { readBind } from "../protocol/extended-messages";
import { MessageType, readParse, readQueryText } from "../protocol/frontend-messages";
import type { FramedSegment } from "../protocol/message-framer";
import { readCString } from "../protocol/read-c-string";
import { detectQuestion, type QuestionDetection } from "../question/detect-question";
import { QuestionMarker } from "../question/question-marker";
import type { AskedQuestion } from "./respond-to-question";

const ORDINARY_SQL: QuestionDetection = { kind: "sql" };

/** Where a client message goes once the connection is ready. */
export type ClientRoute =
  /** Pass the bytes upstream; `awaitsReady` when the upstream answers them with a ReadyForQuery. */
  | { readonly kind: "forward"; readonly bytes: Buffer; readonly awaitsReady: boolean }
  /** A simple Query that carries a question: answer it. */
  | { readonly kind: "answer"; readonly detection: AskedQuestion }
  /** A Parse or Bind that carries a question: collect its extended-protocol batch until Sync, then answer it. */
  | { readonly kind: "collect"; readonly detection: AskedQuestion; readonly first: Buffer };

/**
 * Routes client messages while the connection is ready: finds the questions in simple Query and
 * Parse texts (by `marker`), remembers which prepared statements hold one (a later Bind to one asks it
 * again), and tracks whether extended-protocol messages went upstream since the last Sync.
 */
export class ClientMessageRouter {
  /** Matched on the message's bytes first: a message without a comment opening with it is not decoded. */
  readonly #marker: QuestionMarker;
  /** Prepared statements (by name) that hold a question. */
  readonly #questionStatements = new Map<string, string>();
  #forwardedSinceSync = false;

  constructor(marker: string) {
    this.#marker = new QuestionMarker(marker);
  }

  /** Whether a client message of `type` must be handed over whole to be routed. */
  inspects(type: number): boolean {
    return (
      type === MessageType.query ||
      type === MessageType.parse ||
      type === MessageType.sync ||
      type === MessageType.functionCall ||
      (type === MessageType.bind && this.#questionStatements.size > 0)
    );
  }

  /** Routes one segment from the client (the connection is ready). */
  route(segment: FramedSegment): ClientRoute {
    if (segment.kind === "bytes") return this.#forwardExtended(segment.bytes);
    const { type, message } = segment;
    switch (type) {
      case MessageType.query: {
        const detection = this.#holdsMarker(message)
          ? detectQuestion(readQueryText(message), { marker: this.#marker })
          : ORDINARY_SQL;
        if (detection.kind !== "sql") return { kind: "answer", detection };
        this.#forwardedSinceSync = false;
        return { kind: "forward", bytes: message, awaitsReady: true };
      }
      case MessageType.parse: {
        if (!this.#holdsMarker(message)) {
          if (this.#questionStatements.size > 0) this.#questionStatements.delete(readCString(message, 5).text);
          return this.#forwardExtended(message);
        }
        const parse = readParse(message);
        const detection = detectQuestion(parse.text, { marker: this.#marker });
        if (detection.kind === "sql") {
          this.#questionStatements.delete(parse.statementName);
          return this.#forwardExtended(message);
        }
        if (detection.kind === "question") this.#questionStatements.set(parse.statementName, detection.question);
        else this.#questionStatements.delete(parse.statementName);
        return { kind: "collect", detection, first: message };
      }
      case MessageType.bind: {
        const question = this.#questionStatements.get(readBind(message).statementName);
        if (question === undefined) return this.#forwardExtended(message);
        return { kind: "collect", detection: { kind: "question", question }, first: message };
      }
      case MessageType.sync:
        this.#forwardedSinceSync = false;
        return { kind: "forward", bytes: message, awaitsReady: true };
      case MessageType.functionCall:
        return { kind: "forward", bytes: message, awaitsReady: true };
      default:
        return this.#forwardExtended(message);
    }
  }

  /**
   * A collected question batch reached its Sync: true when earlier messages of the batch already went
   * upstream (the question cannot be answered then). Starts a new batch either way.
   */
  takeForwardedSinceSync(): boolean {
    const forwarded = this.#forwardedSinceSync;
    this.#forwardedSinceSync = false;
    return forwarded;
  }

  /** The upstream owes no ReadyForQuery: whatever went upstream since (COPY data and the like) is settled. */
  upstreamSettled(): void {
    this.#forwardedSinceSync = false;
  }

  /**
   * Whether the message's bytes (after its header) hold a comment opener followed by the marker (any case, optional
   * spaces); cheaper than decoding its text.
   */
  #holdsMarker(message: Buffer): boolean {
    return this.#marker.mayOccurInBytes(message, 5);
  }

  #forwardExtended(bytes: Buffer): ClientRoute {
    this.#forwardedSinceSync = true;
    return { kind: "forward", bytes, awaitsReady: false };
  }
}
