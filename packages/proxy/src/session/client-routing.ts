import { MessageType } from "../protocol/frontend-messages";
import type { FramedSegment, LargeMessageFate } from "../protocol/message-framer";
import type { ClientRoute } from "./client-message-router";
import type { ConnectionContext } from "./connection-context";
import { type CollectingQuestionBatchState, READY } from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { QuestionBatch } from "./question-batch";
import type { AskedQuestion } from "./respond-to-question";

/**
 * Client message routing, once the session is up: passing ordinary SQL through, and turning a question into an answer.
 *
 * - **Ready** accepts every client message and follows `ClientMessageRouter`'s route: forwarded upstream untouched
 *   (a ReadyForQuery is then owed for a Query, Sync or FunctionCall), a marked simple Query answered (→ Answering,
 *   `answering.ts`), a Query mixing questions and statements split and answered in order (→ Answering), a marked
 *   Parse (or a Bind of a prepared question) collected (→ CollectingQuestionBatch). A Query or Parse too large to hold
 *   is judged on its head as it streams (`decideLarge`).
 * - **CollectingQuestionBatch** accepts the batch's messages until Sync, then answers it (→ Answering), or, when
 *   earlier messages of the batch already went upstream, sends Sync and reports the error before the upstream's
 *   ReadyForQuery (→ Ready).
 */
export class ClientRouting {
  readonly #context: ConnectionContext;

  constructor(context: ConnectionContext) {
    this.#context = context;
  }

  /** A client segment while Ready. */
  onReadySegment(segment: FramedSegment): void {
    this.#follow(this.#context.router.route(segment));
  }

  /** A client segment while a question's extended-protocol batch is collected. */
  onBatchSegment(state: CollectingQuestionBatchState, segment: FramedSegment): void {
    if (segment.kind !== "message") return;
    state.batch.add(segment.message);
    if (segment.type === MessageType.sync) this.#onQuestionBatchComplete(state.batch, segment);
  }

  /**
   * A Query or Parse too large to hold whole: when ready, passed or refused as it streams (`routeLarge`); behind a
   * question, the client is not read further until the question is answered, then it is decided again.
   */
  decideLarge(type: number, total: number, head: Buffer): LargeMessageFate {
    const { state, io, router, pendingReady } = this.#context;
    if (state.step === ConnectionStep.Answering) io.clientPauses.hold("large");
    if (io.clientPauses.has("large")) return "defer";
    if (state.step !== ConnectionStep.Ready || io.clientQueue.length > 0) return "hold";
    const route = router.routeLarge(type, total, head);
    if (route.refused !== undefined) this.#context.startAnswer(route.refused);
    if (route.awaitsReady) pendingReady.expect();
    return route.fate;
  }

  #follow(route: ClientRoute): void {
    switch (route.kind) {
      case "forward":
        if (route.awaitsReady) this.#context.pendingReady.expect();
        this.#context.io.writeUpstream(route.bytes);
        break;
      case "answer":
        this.#context.startAnswer(route.detection);
        break;
      case "split":
        this.#context.startAnsweringStatements(route.text);
        break;
      case "collect":
        this.#startQuestionBatch(route.detection, route.statement, route.first);
        break;
    }
  }

  #startQuestionBatch(detection: AskedQuestion, statement: string, first: Buffer): void {
    const batch = new QuestionBatch(detection, statement, first, this.#context.io.clientQueueLimitBytes);
    this.#context.state = { step: ConnectionStep.CollectingQuestionBatch, batch };
  }

  /** The Sync that ends an extended-protocol batch holding a question. */
  #onQuestionBatchComplete(batch: QuestionBatch, sync: FramedSegment): void {
    const context = this.#context;
    context.state = READY;
    if (context.router.takeForwardedSinceSync()) {
      // Earlier messages of this batch went upstream: let the upstream answer them, then report the
      // error just before its ReadyForQuery (unless the upstream already reported an error). The Sync is routed as
      // any other: it owes a ReadyForQuery, unless a COPY FROM STDIN one of those messages started reads it.
      context.questionBatchError.schedule();
      this.#follow(context.router.route(sync));
    } else {
      context.startAnswer(batch.detection, batch);
    }
  }
}
