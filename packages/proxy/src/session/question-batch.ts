import { QuestionBatchTooLargeError } from "./question-errors";
import type { AskedQuestion } from "./respond-to-question";

/**
 * The extended-protocol batch of a question (Parse or Bind … Sync), collected until its Sync. Bounded:
 * a batch holding more than `limitBytes` (a client that never sends Sync) fails with
 * `QuestionBatchTooLargeError` instead of growing the proxy's memory.
 */
export class QuestionBatch {
  readonly detection: AskedQuestion;
  /** The prepared statement the batch is about (`""` is the unnamed one). */
  readonly statement: string;
  readonly messages: Buffer[];
  readonly #limitBytes: number;
  #bytes: number;

  constructor(detection: AskedQuestion, statement: string, first: Buffer, limitBytes: number) {
    this.detection = detection;
    this.statement = statement;
    this.messages = [first];
    this.#limitBytes = limitBytes;
    this.#bytes = first.length;
  }

  /** Adds one message of the batch; throws `QuestionBatchTooLargeError` above the limit. */
  add(message: Buffer): void {
    this.#bytes += message.length;
    if (this.#bytes > this.#limitBytes) {
      throw new QuestionBatchTooLargeError(
        `the extended-protocol batch of a natural-language question exceeds ${this.#limitBytes} bytes`,
      );
    }
    this.messages.push(message);
  }
}
