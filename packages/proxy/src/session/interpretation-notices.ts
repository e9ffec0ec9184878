import type { Answer } from "@nlq/engine";
import { encodeNoticeResponse } from "../protocol/backend-messages";
import type { QuestionMarker } from "../question/question-marker";

/**
 * The NOTICEs that list an answer's interpretations when its candidates' results split (issue 19 item 2): one that
 * says so (and whether nlq would rather ask: `needsChoice`, `choiceBasis`) with how to pick another reading on this
 * connection (`/* nl#2 *\/;`, spelled with the connection's `marker`), then one per reading: its number, support, the
 * computed difference line (message) and its SQL (detail). None for fewer than two interpretations. Pure.
 */
export function encodeInterpretationNotices(answer: Answer, marker?: QuestionMarker): Buffer[] {
  const interpretations = answer.interpretations ?? [];
  if (interpretations.length < 2) return [];
  const chosen = interpretations.find((interpretation) => interpretation.chosen) ?? interpretations[0]!;
  const other = interpretations.find((interpretation) => !interpretation.chosen) ?? interpretations[1]!;
  const pick = marker?.pickExample(other.number) ?? `/* nl#${other.number} */;`;
  const candidates = answer.selection.candidates;
  const messages = [
    encodeNoticeResponse({
      severity: "NOTICE",
      code: "00000",
      message: `nlq: ${answer.needsChoice ? "which did you mean? " : ""}the question has ${interpretations.length} readings whose results differ; these rows are #${chosen.number}'s, run ${pick} to see #${other.number}'s instead`,
      ...(answer.choiceBasis === undefined ? {} : { detail: answer.choiceBasis }),
    }),
  ];
  for (const interpretation of interpretations) {
    const support = `${interpretation.support} of ${candidates} candidate${candidates === 1 ? "" : "s"}`;
    messages.push(
      encodeNoticeResponse({
        severity: "NOTICE",
        code: "00000",
        message: `nlq: #${interpretation.number}${interpretation.chosen ? " (shown)" : ""}, ${support}: ${interpretation.difference}`,
        detail: interpretation.sql,
      }),
    );
  }
  return messages;
}
