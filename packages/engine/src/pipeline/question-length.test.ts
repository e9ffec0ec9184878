import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_QUESTION_LENGTH } from "../config/environment-schema";
import { loadSettings } from "../config/settings";
import type { QueryLogEntry } from "../contract/answer";
import type { PipelineEvent } from "../contract/events";
import type { QueryExecutor } from "../database/query-executor";
import { QuestionTooLongError, UnanswerableQuestionError } from "../errors/question-errors";
import { createScriptedModel } from "../models/scripted-model";
import { answerQuestion } from "./answer-question";
import { checkQuestionLength } from "./question-length";

describe("checkQuestionLength", () => {
  it("accepts up to the limit and refuses one character more, without quoting the question", () => {
    expect(DEFAULT_MAX_QUESTION_LENGTH).toBe(4_000);
    expect(() => checkQuestionLength("x".repeat(4_000), 4_000)).not.toThrow();
    const error = captured(() => checkQuestionLength(`${"secret ".repeat(600)}x`, 4_000));
    expect(error).toBeInstanceOf(QuestionTooLongError);
    expect(error).toMatchObject({ code: "54000", length: 4_201, limit: 4_000 });
    expect(error.message).toBe(
      "the question is 4201 characters long; nlq accepts at most 4000 (NLQ_MAX_QUESTION_LENGTH)",
    );
  });

  it("counts characters, not UTF-16 units", () => {
    expect(() => checkQuestionLength("😀".repeat(10), 10)).not.toThrow();
    expect(() => checkQuestionLength("😀".repeat(11), 10)).toThrow(QuestionTooLongError);
  });
});

describe("answerQuestion with a question over NLQ_MAX_QUESTION_LENGTH", () => {
  it("fails with QuestionTooLongError before touching the session, the model or the query log", async () => {
    const queries: string[] = [];
    const session: QueryExecutor = {
      name: "untouched",
      query: async (options) => {
        queries.push(options.sql);
        throw new Error("the session must not be used");
      },
    };
    const events: PipelineEvent[] = [];
    const entries: QueryLogEntry[] = [];
    const settings = loadSettings({ NLQ_MODEL: "openai:gpt-4o-mini", NLQ_MAX_QUESTION_LENGTH: "100" });
    const attempt = answerQuestion({
      question: "how many orders? ".repeat(66_000),
      session,
      settings,
      onEvent: (event) => events.push(event),
      queryLog: { record: async (entry) => void entries.push(entry) },
    });
    await expect(attempt).rejects.toThrow(QuestionTooLongError);
    await expect(attempt).rejects.toMatchObject({ code: "54000", limit: 100 });
    expect(queries).toEqual([]);
    expect(events).toEqual([]);
    expect(entries).toEqual([]);
  });
});

describe("errors that quote a question", () => {
  it("UnanswerableQuestionError keeps only an 80-character prefix of the question and 1,000 characters of message", () => {
    const question = "q".repeat(1_100_000);
    const error = new UnanswerableQuestionError(`cannot answer from this database: ${question}`, { question });
    expect(error.question).toBe(`${"q".repeat(80)}…`);
    expect(error.message.length).toBeLessThanOrEqual(1_001);
  });

  it("the scripted model's missing-response error quotes at most 80 characters of the question", async () => {
    const model = createScriptedModel("packages/engine/src/models/fixtures/scripted-model-test.json");
    const question = `${"w".repeat(200_000)} tail-marker`;
    const call = model.doGenerate({
      prompt: [{ role: "user", content: [{ type: "text", text: "p" }] }],
      providerOptions: { nlq: { step: "select-tables", question } },
    });
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toContain(`question "${"w".repeat(80)}…"`);
    expect(error?.message).not.toContain("tail-marker");
    expect(error?.message.length).toBeLessThan(400);
  });
});

function captured(action: () => void): QuestionTooLongError {
  try {
    action();
  } catch (error) {
    return error as QuestionTooLongError;
  }
  throw new Error("expected an error");
}
