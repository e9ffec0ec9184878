import { type AnswerQuestionOptions, loadSettings, type QueryExecutor } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../server/proxy-logger";
import { respondToQuestion } from "./respond-to-question";

const session: QueryExecutor = {
  name: "unused",
  query: async () => {
    throw new Error("the session must not be used");
  },
};

describe("respondToQuestion", () => {
  it("refuses a question over NLQ_MAX_QUESTION_LENGTH with 54000 before answerQuestion runs, quoting none of it", async () => {
    const asked: AnswerQuestionOptions[] = [];
    const question = `${"how many orders were placed last week? ".repeat(30_000)}tail-marker`;
    const outcome = await respondToQuestion({
      detection: { kind: "question", question },
      session,
      readyStatus: "I",
      abortSignal: new AbortController().signal,
      answerQuestion: async (options) => {
        asked.push(options);
        throw new Error("answerQuestion must not run");
      },
      settings: loadSettings({ NLQ_MAX_QUESTION_LENGTH: "4000" }),
      logger: silentLogger,
    });
    expect(asked).toEqual([]);
    expect(outcome).toEqual({
      kind: "error",
      error: {
        severity: "ERROR",
        code: "54000",
        message: `the question is ${question.length} characters long; nlq accepts at most 4000 (NLQ_MAX_QUESTION_LENGTH)`,
      },
    });
  });
});
