import { type Answer, describeKnowledgeUsed } from "@nlq/engine";
import { encodeNoticeResponse } from "../protocol/backend-messages";
import type { QuestionMarker } from "../question/question-marker";

/**
 * The NOTICEs that list an answer's interpretations when its candidates' results split (issue 19 item 2): one that
 * says so (and whether nlq would rather ask: `needsChoice`, `choiceBasis`) with how to pick another reading on this
 * connection (`/* nl#2 *\/;`, spelled with the connection's `marker`) and how to keep it from now on
 * (`/* nl#2 remember *\/;`), then one per reading: its number, support, what the phrase in doubt means in it (when the
 * reading step found one), the computed difference line (message) and its SQL (detail). None for fewer than two
 * interpretations. Pure.
 */
export function encodeInterpretationNotices(answer: Answer, marker?: QuestionMarker): Buffer[] {
  const interpretations = answer.interpretations ?? [];
  if (interpretations.length < 2) return [];
  const chosen = interpretations.find((interpretation) => interpretation.chosen) ?? interpretations[0]!;
  const other = interpretations.find((interpretation) => !interpretation.chosen) ?? interpretations[1]!;
  const pick = marker?.pickExample(other.number) ?? `/* nl#${other.number} */;`;
  const remember = marker?.rememberExample(other.number) ?? `/* nl#${other.number} remember */;`;
  const candidates = answer.selection.candidates;
  const messages = [
    encodeNoticeResponse({
      severity: "NOTICE",
      code: "00000",
      message: `nlq: ${answer.needsChoice ? "which did you mean? " : ""}the question has ${interpretations.length} readings whose results differ; these rows are #${chosen.number}'s, run ${pick} to see #${other.number}'s instead (${remember} also keeps it from now on)`,
      ...(answer.choiceBasis === undefined ? {} : { detail: answer.choiceBasis }),
    }),
  ];
  for (const interpretation of interpretations) {
    const support = `${interpretation.support} of ${candidates} candidate${candidates === 1 ? "" : "s"}`;
    messages.push(
      encodeNoticeResponse({
        severity: "NOTICE",
        code: "00000",
        message: `nlq: #${interpretation.number}${interpretation.chosen ? " (shown)" : ""}, ${support}${interpretation.reading ? `, «${interpretation.reading.phrase}» = ${interpretation.reading.chosen.label}` : ""}: ${interpretation.difference}`,
        detail: interpretation.sql,
      }),
    );
  }
  return messages;
}

/**
 * One NOTICE per confirmed reading the answer followed instead of asking (rule 5 of
 * docs/decisions/2026-12-01-readings-knowledge-and-teaching.md): what the phrase was taken to mean, whose confirmation
 * it was and when, and what was set aside. Pure.
 */
export function encodeFollowedConfirmationNotices(answer: Answer): Buffer[] {
  return (answer.followedConfirmations ?? []).map((followed) =>
    encodeNoticeResponse({
      severity: "NOTICE",
      code: "00000",
      message: `nlq: followed a confirmed reading: «${followed.phrase}» means ${followed.chosen.label} (confirmed by ${followed.confirmedBy}, ${followed.confirmedAt.slice(0, 10)})`,
      ...(followed.setAside.length > 0
        ? { detail: `not ${followed.setAside.map((choice) => choice.label).join(" or ")}` }
        : {}),
    }),
  );
}

/**
 * The NOTICE that says which definitions the answer used (`Answer.knowledgeUsed`: each knowledge entry that reached its
 * prompts, by kind and name), so every answer can say what it rested on. None when no entry did. Pure.
 */
export function encodeKnowledgeUsedNotices(answer: Answer): Buffer[] {
  const used = describeKnowledgeUsed(answer.knowledgeUsed);
  return used === undefined
    ? []
    : [encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: `nlq: ${used}` })];
}
