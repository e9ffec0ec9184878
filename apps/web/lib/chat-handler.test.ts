import type { Answer, AnswerQuestionOptions, QueryExecutor } from "@nlq/engine";
import { CancelledError, DatabaseError, ModelConfigurationError } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { describe, expect, it } from "vitest";
import { type ChatDependencies, type ChatSession, handleChatRequest } from "./chat-handler";
import type { NlqUIMessage } from "./chat-message";

const executor: QueryExecutor = {
  name: "fake",
  query: async () => ({ fields: [], rows: [], command: "SELECT 0" }),
};

const countAnswer: Answer = {
  question: "how many customers are there?",
  sql: "SELECT count(*) FROM customers",
  result: {
    fields: [{ name: "count", dataTypeId: 20, dataTypeSize: 8, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["42"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "scripted:fixtures/demo-model.json", scripted: true },
  candidates: [
    { generator: "one-shot", sample: 0, sql: "SELECT count(*) FROM customers", revisions: 0, ok: true, rows: 1 },
  ],
  calls: [],
  elapsedMilliseconds: 12,
};

interface Harness {
  dependencies: ChatDependencies;
  releases: boolean[];
  asked: AnswerQuestionOptions[];
  logged: unknown[];
}

function harness(answer: (options: AnswerQuestionOptions) => Promise<Answer>): Harness {
  const releases: boolean[] = [];
  const asked: AnswerQuestionOptions[] = [];
  const logged: unknown[] = [];
  const session: ChatSession = { executor, release: (failed) => releases.push(failed) };
  return {
    releases,
    asked,
    logged,
    dependencies: {
      answer: (options) => {
        asked.push(options);
        return answer(options);
      },
      settings: (preset) =>
        ({ maxQuestionLength: 4_000, preset: { name: preset ?? "balanced" } }) as AnswerQuestionOptions["settings"],
      openSession: async () => session,
      logError: (error) => logged.push(error),
    },
  };
}

/** Sends one question through the real useChat transport and returns the final assistant message. */
async function ask(dependencies: ChatDependencies, question: string, abortSignal?: AbortSignal) {
  const transport = new DefaultChatTransport<NlqUIMessage>({
    api: "http://nlq.test/api/chat",
    fetch: async (input, init) => handleChatRequest(new Request(input, init), dependencies),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }],
  });
  let last: NlqUIMessage | undefined;
  for await (const message of readUIMessageStream<NlqUIMessage>({ stream: chunks })) last = message;
  return last;
}

describe("handleChatRequest", () => {
  it("answers with the preset the request names, and refuses an unknown one before any session", async () => {
    const test = harness(async () => countAnswer);
    const send = (preset: unknown) =>
      handleChatRequest(
        new Request("http://nlq.test/api/chat", {
          method: "POST",
          body: JSON.stringify({
            preset,
            messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "how many customers?" }] }],
          }),
        }),
        test.dependencies,
      );
    const answered = await send("fast");
    await answered.text();
    expect(test.asked[0]?.settings.preset.name).toBe("fast");
    const refused = await send("fastest");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/Unknown preset/) } });
    expect(test.asked).toHaveLength(1);
  });

  it("streams steps that update in place and then the answer, and releases the session", async () => {
    const test = harness(async (options) => {
      options.onEvent?.({ type: "pipeline-start", question: options.question });
      options.onEvent?.({ type: "catalog-start" });
      options.onEvent?.({ type: "catalog-end", tables: 2, columns: 9, source: "introspection" });
      options.onEvent?.({ type: "candidate-start", candidate: 1, generator: "one-shot", sample: 0 });
      options.onEvent?.({ type: "candidate-end", candidate: 1, sql: countAnswer.sql, ok: true, rows: 1 });
      options.onEvent?.({ type: "pipeline-end", sql: countAnswer.sql, rows: 1, elapsedMilliseconds: 12 });
      return countAnswer;
    });
    const message = await ask(test.dependencies, "how many customers are there?");
    expect(test.asked[0]?.question).toBe("how many customers are there?");
    expect(test.asked[0]?.session).toBe(executor);
    expect(test.asked[0]?.origin).toBe("web");
    expect(test.asked[0]?.abortSignal).toBeInstanceOf(AbortSignal);
    const steps = message?.parts.flatMap((part) => (part.type === "data-step" ? [[part.id, part.data.status]] : []));
    expect(steps).toEqual([
      ["catalog", "done"],
      ["candidate-1", "done"],
      ["result", "done"],
    ]);
    const answer = message?.parts.find((part) => part.type === "data-answer");
    expect(answer?.type === "data-answer" && answer.data).toMatchObject({
      sql: "SELECT count(*) FROM customers",
      fields: [{ name: "count", dataTypeId: 20 }],
      rows: [["42"]],
      truncated: false,
      model: { id: "scripted:fixtures/demo-model.json", scripted: true },
      candidates: 1,
    });
    expect(test.releases).toEqual([false]);
  });

  it("streams the plain-language sentence with the answer, and none when the answer has none", async () => {
    const summary = { sentence: "There are 42 customers.", model: "scripted:fixtures/demo-model.json", scripted: true };
    const test = harness(async (options) => {
      options.onEvent?.({ type: "pipeline-start", question: options.question });
      options.onEvent?.({ type: "summary-start", rows: 1 });
      options.onEvent?.({ type: "summary-end", sentence: summary.sentence });
      options.onEvent?.({ type: "pipeline-end", sql: countAnswer.sql, rows: 1, elapsedMilliseconds: 12 });
      return { ...countAnswer, summary };
    });
    const message = await ask(test.dependencies, "how many customers are there?");
    const steps = message?.parts.flatMap((part) => (part.type === "data-step" ? [[part.id, part.data.label]] : []));
    expect(steps).toEqual([
      ["summary", "Summarized the answer"],
      ["result", "Answered"],
    ]);
    const answer = message?.parts.find((part) => part.type === "data-answer");
    expect(answer?.type === "data-answer" && answer.data.summary).toEqual(summary);

    const without = await ask(harness(async () => countAnswer).dependencies, "how many customers are there?");
    const plain = without?.parts.find((part) => part.type === "data-answer");
    expect(plain?.type === "data-answer" && plain.data).not.toHaveProperty("summary");
  });

  it("reports typed errors with their SQLSTATE, closes running steps and discards the session", async () => {
    const test = harness(async (options) => {
      options.onEvent?.({ type: "pipeline-start", question: options.question });
      options.onEvent?.({ type: "catalog-start" });
      throw new DatabaseError('relation "customer" does not exist', {
        sql: "SELECT * FROM customer",
        code: "42P01",
        hint: "Perhaps you meant customers.",
      });
    });
    const message = await ask(test.dependencies, "list customers");
    const parts = message?.parts ?? [];
    expect(parts.find((part) => part.type === "data-step")).toMatchObject({
      id: "catalog",
      data: { status: "failed" },
    });
    expect(parts.find((part) => part.type === "data-error")).toMatchObject({
      data: {
        code: "42P01",
        name: "DatabaseError",
        message: 'relation "customer" does not exist',
        sql: "SELECT * FROM customer",
        hint: "Perhaps you meant customers.",
      },
    });
    expect(test.releases).toEqual([true]);
    expect(test.logged).toEqual([]);
  });

  it("reports a missing model configuration before opening a session", async () => {
    const test = harness(async () => countAnswer);
    test.dependencies.settings = () => {
      throw new ModelConfigurationError("no language model is configured: set NLQ_MODEL");
    };
    const message = await ask(test.dependencies, "how many customers are there?");
    expect(message?.parts).toEqual([
      expect.objectContaining({ type: "data-error", data: expect.objectContaining({ code: "55000" }) }),
    ]);
    expect(test.asked).toEqual([]);
    expect(test.releases).toEqual([]);
  });

  it("hides untyped errors behind a generic internal error and logs them", async () => {
    const test = harness(async () => {
      throw new Error("password authentication failed for postgres://secret@db");
    });
    const message = await ask(test.dependencies, "q");
    const error = message?.parts.find((part) => part.type === "data-error");
    expect(error?.type === "data-error" && error.data).toEqual({
      code: "XX000",
      name: "InternalError",
      message: "The question failed with an internal error.",
    });
    expect(JSON.stringify(message)).not.toContain("secret");
    expect(test.logged).toHaveLength(1);
  });

  it("aborts the pipeline when the request is aborted", async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const test = harness(
      (options) =>
        new Promise<Answer>((_resolve, reject) => {
          options.onEvent?.({ type: "pipeline-start", question: options.question });
          options.abortSignal?.addEventListener("abort", () => {
            sawAbort = true;
            reject(new CancelledError());
          });
          setTimeout(() => controller.abort(), 20);
        }),
    );
    await ask(test.dependencies, "slow question", controller.signal).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sawAbort).toBe(true);
    expect(test.releases).toEqual([true]);
  });

  it("passes earlier turns of the conversation to the pipeline", async () => {
    const test = harness(async () => countAnswer);
    const body = {
      messages: [
        { id: "u1", role: "user", parts: [{ type: "text", text: "how many customers are there?" }] },
        { id: "a1", role: "assistant", parts: [{ type: "data-answer", id: "answer", data: { sql: countAnswer.sql } }] },
        { id: "u2", role: "user", parts: [{ type: "text", text: "and in Berlin?" }] },
      ],
    };
    const response = await handleChatRequest(
      new Request("http://nlq.test/api/chat", { method: "POST", body: JSON.stringify(body) }),
      test.dependencies,
    );
    await response.text();
    expect(test.asked[0]?.question).toBe("and in Berlin?");
    expect(test.asked[0]?.previousTurns).toEqual([{ question: "how many customers are there?", sql: countAnswer.sql }]);
  });

  it("answers 400 with SQLSTATE 54000 to a question over NLQ_MAX_QUESTION_LENGTH, without opening a session", async () => {
    const test = harness(async () => countAnswer);
    test.dependencies.settings = () => ({ maxQuestionLength: 20 }) as AnswerQuestionOptions["settings"];
    const question = "how many customers are there in every city?";
    const response = await handleChatRequest(
      new Request("http://nlq.test/api/chat", {
        method: "POST",
        body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }] }),
      }),
      test.dependencies,
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ error: { code: "54000", name: "QuestionTooLongError" } });
    expect(JSON.stringify(body)).not.toContain("customers");
    expect(test.asked).toEqual([]);
  });

  it("answers 400 to a body without a question", async () => {
    const test = harness(async () => countAnswer);
    const response = await handleChatRequest(
      new Request("http://nlq.test/api/chat", { method: "POST", body: JSON.stringify({ messages: [] }) }),
      test.dependencies,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "42601" } });
    const notJson = await handleChatRequest(
      new Request("http://nlq.test/api/chat", { method: "POST", body: "{" }),
      test.dependencies,
    );
    expect(notJson.status).toBe(400);
  });
});
