import { readScriptedFixture } from "@nlq/engine";

/**
 * The questions a scripted fixture (`scripted:<file>`) answers, in the order they first appear, each once: the
 * question text of its responses, without the `"*"` fallbacks.
 */
export function readFixtureQuestions(fixturePath: string): string[] {
  const { fixture } = readScriptedFixture(fixturePath);
  const questions: string[] = [];
  for (const response of fixture.responses) {
    if (response.question === "*" || questions.includes(response.question)) continue;
    questions.push(response.question);
  }
  return questions;
}
