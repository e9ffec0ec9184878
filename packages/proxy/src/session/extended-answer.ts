import type { Answer } from "@nlq/engine";
import {
  encodeCommandComplete,
  encodeDataRow,
  encodeReadyForQuery,
  encodeRowDescription,
  type ReadyStatus,
} from "../protocol/backend-messages";
import {
  encodeBindComplete,
  encodeCloseComplete,
  encodeParameterDescription,
  encodeParseComplete,
  readBind,
  readDescribeOrClose,
} from "../protocol/extended-messages";
import { MessageType } from "../protocol/frontend-messages";
import { readCString } from "../protocol/read-c-string";
import type { QuestionMarker } from "../question/question-marker";
import { appendAnswerRows, encodeAnswerNotices } from "./answer-messages";
import { UnsupportedQuestionBatchError } from "./question-errors";
import type { FormattedRows } from "./result-formats";

/**
 * Checks a question batch before any work is done; throws `UnsupportedQuestionBatchError`. Every message must be
 * about the question's prepared `statement`: its Parse (first only), Binds of it without parameters and with text
 * results (binary too with `binaryResults`), Describes of it or of portals bound in the batch, Executes of those portals, Close, Flush and Sync.
 */
export function checkQuestionBatch(
  batch: readonly Buffer[],
  statement: string,
  options: { readonly binaryResults?: boolean } = {},
): void {
  const portals = new Set<string>();
  const alone = (found: string) =>
    new UnsupportedQuestionBatchError(
      `a natural-language question must be alone in its extended-protocol batch (found ${found})`,
    );
  batch.forEach((message, index) => {
    const type = message[0]!;
    if (type === MessageType.parse) {
      if (index > 0) throw alone("a second Parse");
    } else if (type === MessageType.bind) {
      const bind = readBind(message);
      if (bind.statementName !== statement) throw alone("a Bind of another statement");
      if (bind.parameterCount > 0) {
        throw new UnsupportedQuestionBatchError("a natural-language question takes no parameters");
      }
      if (!options.binaryResults && bind.resultFormats.some((format) => format !== 0)) {
        throw new UnsupportedQuestionBatchError("answers to natural-language questions come in text format only");
      }
      portals.add(bind.portal);
    } else if (type === MessageType.describe) {
      const { target, name } = readDescribeOrClose(message);
      if (target === "S" ? name !== statement : !portals.has(name)) throw alone("a Describe of another statement");
    } else if (type === MessageType.execute) {
      if (!portals.has(readCString(message, 5).text)) throw alone("an Execute of another portal");
    } else if (!BATCH_TYPES.has(type)) {
      throw alone(`message '${String.fromCharCode(type)}'`);
    }
  });
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
 * CloseComplete, then ReadyForQuery. The answer's NOTICEs go first. `rows`, when given, are what Execute returns
 * (in the formats of the batch's Bind) instead of the answer's text rows. Pure.
 */
export function encodeExtendedAnswer(
  batch: readonly Buffer[],
  answer: Answer,
  status: ReadyStatus,
  rows?: FormattedRows,
  marker?: QuestionMarker,
): Buffer[] {
  const replies: Buffer[] = [...encodeAnswerNotices(answer, rows?.rows.length, marker)];
  for (const message of batch) {
    switch (message[0]) {
      case MessageType.parse:
        replies.push(encodeParseComplete());
        break;
      case MessageType.bind:
        replies.push(encodeBindComplete());
        break;
      case MessageType.describe:
        if (readDescribeOrClose(message).target === "S") {
          replies.push(encodeParameterDescription([]), encodeRowDescription(answer.result.fields));
        } else {
          replies.push(encodeRowDescription(answer.result.fields, rows?.formats));
        }
        break;
      case MessageType.execute:
        if (rows === undefined) {
          appendAnswerRows(replies, answer);
        } else {
          for (const row of rows.rows) replies.push(encodeDataRow(row));
          replies.push(encodeCommandComplete(rows.command));
        }
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
