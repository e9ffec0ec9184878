import { QuestionSyntaxError } from "@nlq/engine";
import { readBind, readDescribeOrClose } from "../protocol/extended-messages";
import { MessageType, readParse, readQueryText } from "../protocol/frontend-messages";
import type { FramedSegment, LargeMessageFate } from "../protocol/message-framer";
import { readCString } from "../protocol/read-c-string";
import { detectQuestion, type QuestionDetection } from "../question/detect-question";
import { headMayAsk } from "../question/head-may-ask";
import { QuestionMarker } from "../question/question-marker";
import { ConnectionConversation } from "./connection-conversation";
import { CopyInState } from "./copy-in-state";
import { PreparedQuestions } from "./prepared-questions";
import { QuestionQueryTooLargeError } from "./question-errors";
import type { AskedQuestion } from "./respond-to-question";

const ORDINARY_SQL: QuestionDetection = { kind: "sql" };

/** Where a client message goes once the connection is ready. */
export type ClientRoute =
  /** Pass the bytes upstream; `awaitsReady` when the upstream answers them with a ReadyForQuery. */
  | { readonly kind: "forward"; readonly bytes: Buffer; readonly awaitsReady: boolean }
  /** A simple Query that carries a question: answer it. */
  | { readonly kind: "answer"; readonly detection: AskedQuestion }
  /** A simple Query holding a question among other statements: split it, run the statements and answer in place. */
  | { readonly kind: "split"; readonly text: string }
  /**
   * A Parse that carries a question, or a Bind or Describe of a prepared statement that holds one: collect its
   * extended-protocol batch until Sync, then answer it. `statement` names the prepared statement.
   */
  | {
      readonly kind: "collect";
      readonly detection: AskedQuestion;
      readonly first: Buffer;
      readonly statement: string;
    };

/**
 * What becomes of a large Query or Parse, decided on its head (`ClientMessageRouter.routeLarge`): held whole as any
 * other (a Parse that may hold a question, another type), passed upstream as it streams (ordinary SQL; `awaitsReady`
 * for a Query), or dropped as it streams and answered with `refused` (a Query too large for the question it holds).
 */
export interface LargeClientRoute {
  readonly fate: Exclude<LargeMessageFate, "defer">;
  readonly awaitsReady?: boolean;
  readonly refused?: AskedQuestion;
}

/**
 * Routes client messages while the connection is ready: finds the questions in simple Query and
 * Parse texts (by `marker`), remembers which prepared statements hold one (`PreparedQuestions`: a later Bind or
 * Describe of one is answered from the SQL generated at its Parse, a Close forgets it), and tracks whether
 * extended-protocol messages went upstream since the last Sync.
 */
export class ClientMessageRouter {
  /** Matched on the message's bytes first: a message without a comment opening with it is not decoded. */
  readonly marker: QuestionMarker;
  /** Prepared statements (by name) that hold a question. */
  readonly statements = new PreparedQuestions();
  /** The upstream is in COPY FROM STDIN: every message passes as it is (PostgreSQL takes it as part of the COPY). */
  readonly copyIn = new CopyInState();
  /** The connection's earlier questions and last answer; each ordinary statement run upstream starts them afresh. */
  readonly conversation: ConnectionConversation;
  #forwardedSinceSync = false;

  /** `conversation`: a resumed parked session's (its last answer stays pickable); default a fresh one. */
  constructor(marker: string, conversation = new ConnectionConversation()) {
    this.marker = new QuestionMarker(marker);
    this.conversation = conversation;
  }

  /** Whether a client message of `type` must be handed over whole to be routed. */
  inspects(type: number): boolean {
    return (
      type === MessageType.query ||
      type === MessageType.parse ||
      type === MessageType.sync ||
      type === MessageType.functionCall ||
      type === MessageType.execute ||
      this.copyIn.inspectsClient(type) ||
      ((type === MessageType.bind || type === MessageType.describe || type === MessageType.close) &&
        this.statements.size > 0)
    );
  }

  /**
   * Routes a Query or Parse longer than the framer holds, on its first bytes (`head`, header included; the connection
   * is ready): ordinary SQL streams upstream; a Query whose head asks a question is refused as it streams, a Parse
   * with the marker in its head is held whole. Markers past the head are left to PostgreSQL, as comments.
   */
  routeLarge(type: number, total: number, head: Buffer): LargeClientRoute {
    if (this.copyIn.active) {
      this.copyIn.noteClient(type);
      return { fate: "pass" };
    }
    if (type !== MessageType.query && type !== MessageType.parse) return { fate: "hold" };
    const marked = this.#holdsMarker(head);
    if (type === MessageType.query) {
      // A simple Query destroys the unnamed prepared statement.
      if (this.statements.size > 0) this.statements.forget("");
      // Asks a question by its head (a `--` marker beside SQL is a comment): too large for one, refused.
      const asks = marked && headMayAsk(head.toString("utf8", 5), this.marker);
      if (asks) return { fate: "drop", refused: { kind: "refused", error: new QuestionQueryTooLargeError(total) } };
      this.#runsStatement();
      this.#forwardedSinceSync = false;
      return { fate: "pass", awaitsReady: true };
    }
    if (marked || head.indexOf(0, 5) < 0) return { fate: "hold" };
    if (this.statements.size > 0) this.statements.forget(readCString(head, 5).text);
    this.#forwardedSinceSync = true;
    return { fate: "pass" };
  }

  /** Routes one segment from the client (the connection is ready). */
  route(segment: FramedSegment): ClientRoute {
    // During COPY FROM STDIN, and for the rest of a large message (routed at its head, `routeLarge`): as it is.
    if (this.copyIn.active || (segment.kind === "bytes" && segment.large)) {
      if (segment.kind === "message") this.copyIn.noteClient(segment.type);
      return {
        kind: "forward",
        bytes: segment.kind === "message" ? segment.message : segment.bytes,
        awaitsReady: false,
      };
    }
    if (segment.kind === "bytes") return this.#forwardExtended(segment.bytes);
    const { type, message } = segment;
    switch (type) {
      case MessageType.query: {
        // A command whatever it holds: a split one runs its statements upstream as Queries (a COPY among them, too).
        this.copyIn.commandSent();
        const detection = this.#holdsMarker(message)
          ? this.#pickWithAnswer(detectQuestion(readQueryText(message), { marker: this.marker }))
          : ORDINARY_SQL;
        // A simple Query destroys the unnamed prepared statement.
        if (this.statements.size > 0) this.statements.forget("");
        if (detection.kind === "statements") return { kind: "split", text: readQueryText(message) };
        if (detection.kind !== "sql") return { kind: "answer", detection };
        this.#runsStatement();
        this.#forwardedSinceSync = false;
        return { kind: "forward", bytes: message, awaitsReady: true };
      }
      case MessageType.parse: {
        if (!this.#holdsMarker(message)) {
          if (this.statements.size > 0) this.statements.forget(readCString(message, 5).text);
          return this.#forwardExtended(message);
        }
        const parse = readParse(message);
        const detected = this.#pickWithAnswer(detectQuestion(parse.text, { marker: this.marker }));
        const detection: QuestionDetection =
          detected.kind === "statements"
            ? {
                kind: "invalid",
                error: new QuestionSyntaxError(
                  "a natural-language question must be the only statement in a prepared statement",
                ),
              }
            : detected;
        if (detection.kind === "sql") {
          this.statements.forget(parse.statementName);
          return this.#forwardExtended(message);
        }
        if (detection.kind === "question") this.statements.parsed(parse.statementName, detection.question);
        else this.statements.forget(parse.statementName);
        return { kind: "collect", detection, first: message, statement: parse.statementName };
      }
      case MessageType.bind: {
        const statement = readBind(message).statementName;
        return this.#collectPrepared(statement, message) ?? this.#forwardExtended(message);
      }
      case MessageType.describe: {
        const { target, name } = readDescribeOrClose(message);
        if (target === "P") return this.#forwardExtended(message);
        return this.#collectPrepared(name, message) ?? this.#forwardExtended(message);
      }
      case MessageType.close: {
        // The upstream never saw the statement's Parse; it answers a Close of an unknown name with CloseComplete.
        const { target, name } = readDescribeOrClose(message);
        if (target === "S") this.statements.forget(name);
        return this.#forwardExtended(message);
      }
      case MessageType.execute:
        this.#runsStatement();
        return this.#forwardExtended(message);
      case MessageType.sync:
        this.copyIn.syncSent();
        this.#forwardedSinceSync = false;
        return { kind: "forward", bytes: message, awaitsReady: true };
      case MessageType.functionCall:
        this.#runsStatement();
        return { kind: "forward", bytes: message, awaitsReady: true };
      default:
        return this.#forwardExtended(message);
    }
  }

  /**
   * A pick asks only on a connection with an answer to pick from; before any, it is the comment PostgreSQL sees (an
   * empty query), as beside other SQL: psql sends `select 6; /* nl#1 *\/;` as two queries, and PostgreSQL answers the
   * second with nothing.
   */
  #pickWithAnswer(detection: QuestionDetection): QuestionDetection {
    return detection.kind === "pick" && this.conversation.lastAnswer === undefined ? ORDINARY_SQL : detection;
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

  /** Extended-protocol messages went upstream since the last Sync (or since the upstream last owed nothing). */
  get forwardedSinceSync(): boolean {
    return this.#forwardedSinceSync;
  }

  /** Takes over what the native relay tracked while it moved the connection's messages. */
  restoreForwardedSinceSync(forwarded: boolean): void {
    this.#forwardedSinceSync = forwarded;
  }

  /**
   * Notes one whole upstream message of `type` (every one `copyIn.inspects`); returns how many of the ReadyForQuery
   * messages counted the upstream does not owe after all (`PendingReady.ignore`): a COPY FROM STDIN started by an
   * Execute reads the Syncs sent after it as part of the COPY. Its batch stays open until the Sync after the COPY.
   */
  noteUpstream(type: number): number {
    const ignored = this.copyIn.note(type);
    if (ignored > 0) this.#forwardedSinceSync = true;
    return ignored;
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
    return this.marker.mayOccurInBytes(message, 5);
  }

  /** A Bind or Describe of the prepared statement `name` when it holds a question. */
  #collectPrepared(name: string, message: Buffer): ClientRoute | undefined {
    const prepared = this.statements.get(name);
    if (prepared === undefined) return undefined;
    return {
      kind: "collect",
      detection: { kind: "question", question: prepared.question },
      first: message,
      statement: name,
    };
  }

  /**
   * The client runs an ordinary statement upstream (a Query, an Execute of an ordinary portal, a FunctionCall): the
   * one place where its earlier questions are forgotten (a Parse or Bind alone runs nothing) and where the COPY
   * accounting starts over (`CopyInState.commandSent`).
   */
  #runsStatement(): void {
    this.conversation.startAfresh();
    this.copyIn.commandSent();
  }

  #forwardExtended(bytes: Buffer): ClientRoute {
    this.#forwardedSinceSync = true;
    return { kind: "forward", bytes, awaitsReady: false };
  }
}
