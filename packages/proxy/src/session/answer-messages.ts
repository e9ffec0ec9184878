import { type Answer, describeSelection } from "@nlq/engine";
import {
  encodeCommandComplete,
  encodeDataRow,
  encodeNoticeResponse,
  encodeReadyForQuery,
  encodeRowDescription,
  type ReadyStatus,
} from "../protocol/backend-messages";
import { describeAnswerSentence } from "../question/describe-answer-sentence";
import type { QuestionMarker } from "../question/question-marker";
import {
  encodeFollowedConfirmationNotices,
  encodeInterpretationNotices,
  encodeKnowledgeUsedNotices,
} from "./interpretation-notices";

/**
 * The backend messages that answer a question on the wire: NOTICEs (the chosen SQL, where it came
 * from, truncation), RowDescription, DataRows, CommandComplete and ReadyForQuery. Pure.
 */
export function encodeAnswer(answer: Answer, status: ReadyStatus, marker?: QuestionMarker): Buffer[] {
  const messages = encodeAnswerResult(answer, marker);
  messages.push(encodeReadyForQuery(status));
  return messages;
}

/** `encodeAnswer` without the ReadyForQuery: the answer to one statement of a multi-statement query. */
export function encodeAnswerResult(answer: Answer, marker?: QuestionMarker): Buffer[] {
  const messages = encodeAnswerNotices(answer, answer.result.rows.length, marker);
  messages.push(encodeRowDescription(answer.result.fields));
  appendAnswerRows(messages, answer);
  return messages;
}

/** Appends the answer's DataRows and their CommandComplete (what an Execute of the chosen SQL returns). */
export function appendAnswerRows(messages: Buffer[], answer: Answer): void {
  for (const row of answer.result.rows) messages.push(encodeDataRow(row));
  messages.push(encodeCommandComplete(`SELECT ${answer.result.rows.length}`));
}

/**
 * The NOTICEs that go before an answer's rows: the chosen SQL, the plain-language sentence, a scripted replay, truncation (of `rowCount` rows,
 * default the answer's own), the definitions it used, the confirmed readings it followed, the interpretations when there are several (a pick
 * spelled with `marker`).
 */
export function encodeAnswerNotices(
  answer: Answer,
  rowCount = answer.result.rows.length,
  marker?: QuestionMarker,
): Buffer[] {
  const messages: Buffer[] = [];
  const selection = describeSelection(answer.selection, answer.confidence);
  messages.push(
    encodeNoticeResponse({
      severity: "NOTICE",
      code: "00000",
      message: `nlq: ${answer.sql}`,
      detail: `model ${answer.model.id}; ${selection}${answer.explanation ? `; ${answer.explanation}` : ""}`,
    }),
  );
  if (answer.summary) {
    messages.push(
      encodeNoticeResponse({
        severity: "NOTICE",
        code: "00000",
        message: `nlq: ${describeAnswerSentence(answer.summary)}`,
      }),
    );
  }
  if (answer.model.scripted) {
    messages.push(
      encodeNoticeResponse({
        severity: "NOTICE",
        code: "00000",
        message: `nlq: this answer came from a scripted replay of recorded responses (${answer.model.id}), not a language model`,
      }),
    );
  }
  if (answer.truncated) {
    messages.push(
      encodeNoticeResponse({
        severity: "NOTICE",
        code: "00000",
        message:
          answer.truncatedBy === "bytes"
            ? `nlq: result truncated to the first ${rowCount} rows: the byte limit (NLQ_RESULT_BYTE_LIMIT) was reached and the statement cancelled`
            : `nlq: result truncated to the first ${rowCount} rows (NLQ_ROW_LIMIT)`,
      }),
    );
  }
  messages.push(...encodeKnowledgeUsedNotices(answer));
  messages.push(...encodeFollowedConfirmationNotices(answer));
  messages.push(...encodeInterpretationNotices(answer, marker));
  return messages;
}
