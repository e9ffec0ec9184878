import { QuestionTooLongError } from "../errors/question-errors";

/** The number of characters (code points) of `question`, counted only as far as it matters for `limit`. */
function exceeds(question: string, limit: number): number | undefined {
  if (question.length <= limit) return undefined;
  let characters = 0;
  for (const _character of question) characters++;
  return characters > limit ? characters : undefined;
}

/**
 * Throws `QuestionTooLongError` (SQLSTATE 54000) when `question` has more than `limit` characters
 * (`NLQ_MAX_QUESTION_LENGTH`). The error names both lengths and never quotes the question.
 */
export function checkQuestionLength(question: string, limit: number): void {
  const length = exceeds(question, limit);
  if (length !== undefined) throw new QuestionTooLongError(length, limit);
}
