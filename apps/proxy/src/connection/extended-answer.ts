import type { Answer } from "@nlq/engine";
import { encodeReadyForQuery, encodeRowDescription, type ReadyStatus } from "../protocol/backend-messages";
import {
  encodeBindComplete,
  encodeCloseComplete,
  encodeParameterDescription,
  encodeParseComplete,
  readBind,
  readDescribeOrClose,
} from "../protocol/extended-messages";
import { MessageType } from "../protocol/frontend-messages";
import { appendAnswerRows, encodeAnswerNotices } from "./answer-messages";
import { UnsupportedQuestionBatchError } from "./question-errors";

/** Checks a question batch before any work is done; throws `UnsupportedQuestionBatchError`. */
export function checkQuestionBatch(batch: readonly Buffer[]): void {
  for (const message of batch) {
    const type = message[0]!;
    if (type === MessageType.bind) {
      const bind = readBind(message);
      if (bind.parameterCount > 0) {
        throw new UnsupportedQuestionBatchError("a natural-language question takes no parameters");
      }
      if (bind.resultFormats.some((format) => format !== 0)) {
        throw new UnsupportedQuestionBatchError("answers to natural-language questions come in text format only");
      }
    } else if (!BATCH_TYPES.has(type)) {
      throw new UnsupportedQuestionBatchError(
        `a natural-language question must be alone in its extended-protocol batch (found message '${String.fromCharCode(type)}')`,
      );
    }
  }
}

const BATCH_TYPES = new Set<number>([
  MessageType.parse,
  MessageType.bind,
  MessageType.describe,
  MessageType.execute,
  MessageType.close,
  MessageType.flush,
  MessageType.sync,
]);

/**
 * Replies to an extended-protocol batch (Parse/Bind/Describe/Execute/Close/Flush, ending with Sync)
 * whose statement is a question, as PostgreSQL would reply had it run the chosen SQL: ParseComplete,
 * BindComplete, ParameterDescription (no parameters) and RowDescription, DataRows and CommandComplete,
 * CloseComplete, then ReadyForQuery. The answer's NOTICEs go first. Pure.
 */
export function encodeExtendedAnswer(batch: readonly Buffer[], answer: Answer, status: ReadyStatus): Buffer[] {
  const replies: Buffer[] = [...encodeAnswerNotices(answer)];
  for (const message of batch) {
    switch (message[0]) {
      case MessageType.parse:
        replies.push(encodeParseComplete());
        break;
      case MessageType.bind:
        replies.push(encodeBindComplete());
        break;
      case MessageType.describe:
        if (readDescribeOrClose(message).target === "S") replies.push(encodeParameterDescription([]));
        replies.push(encodeRowDescription(answer.result.fields));
        break;
      case MessageType.execute:
        appendAnswerRows(replies, answer);
        break;
      case MessageType.close:
        replies.push(encodeCloseComplete());
        break;
      case MessageType.sync:
        replies.push(encodeReadyForQuery(status));
        break;
      default:
        break;
    }
  }
  return replies;
}
