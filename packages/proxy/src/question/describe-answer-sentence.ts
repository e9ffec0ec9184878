import type { AnswerSummary } from "@nlq/engine";

/**
 * The answer's plain-language sentence as one line, `answer: <sentence>`, labelled when a scripted replay wrote it.
 * `nlq ask` prints it under the table and the proxy sends it as a NOTICE (`nlq: answer: …`). The sentence is already
 * plain text (the engine removed control characters and capped it), so it cannot move a terminal's cursor or colour.
 */
export function describeAnswerSentence(summary: AnswerSummary): string {
  return `answer: ${summary.sentence}${summary.scripted ? " (scripted replay, not a language model)" : ""}`;
}
