import type { Answer, AnswerQuestionOptions, QueryExecutor } from "@nlq/engine";
import { DatabaseError } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { describe, expect, it } from "vitest";
import { type ChatDependencies, handleChatRequest } from "./chat-handler";
import type { NlqUIMessage } from "./chat-message";
import type { StoredReply, ThreadRecorder } from "./thread-recorder";

const executor: QueryExecutor = { name: "fake", query: async () => ({ fields: [], rows: [], command: "SELECT 0" }) };
const threadId = "6c1f7a52-2f57-4c1e-9d0c-3c1d2a9b8e01";

const answer: Answer = {
  question: "how many customers are there?",
  sql: "SELECT count(*) FROM customers",
  result: {
    fields: [{ name: "count", dataTypeId: 20, dataTypeSize: 8, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["42"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "scripted:x", scripted: true },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
};

function recorder() {
  const opened: Array<string | undefined> = [];
  const recorded: StoredReply[] = [];
  const threads: ThreadRecorder = {
    async open(id, question) {
      opened.push(id);
      return {
        id: threadId,
        title: question,
        previousTurns: id ? [{ question: "earlier stored question", sql: "SELECT 1" }] : [],
      };
    },
    async record(_id, _question, reply) {
      recorded.push(reply);
      return "turn-1";
    },
  };
  return { threads, opened, recorded };
}

async function ask(dependencies: ChatDependencies, body: Record<string, unknown>) {
  const transport = new DefaultChatTransport<NlqUIMessage>({
    api: "http://nlq.test/api/chat",
    fetch: async (input, init) => handleChatRequest(new Request(input, init), dependencies),
    prepareSendMessagesRequest: ({ messages }) => ({ body: { messages, ...body } }),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal: undefined,
    messages: [
      { id: "u0", role: "user", parts: [{ type: "text", text: "a question only the browser claims" }] },
      { id: "u1", role: "user", parts: [{ type: "text", text: "how many customers are there?" }] },
    ],
  });
  let last: NlqUIMessage | undefined;
  for await (const message of readUIMessageStream<NlqUIMessage>({ stream: chunks })) last = message;
  return last;
}

describe("handleChatRequest with threads", () => {
  it("uses the stored thread as context and records the answer", async () => {
    const { threads, opened, recorded } = recorder();
    const asked: AnswerQuestionOptions[] = [];
    const message = await ask(
      {
        answer: async (options) => {
          asked.push(options);
          return answer;
        },
        settings: () => ({ maxQuestionLength: 4_000 }) as AnswerQuestionOptions["settings"],
        openSession: async () => ({ executor, release: () => undefined }),
        threads,
      },
      { threadId },
    );
    expect(opened).toEqual([threadId]);
    expect(asked[0]?.previousTurns).toEqual([{ question: "earlier stored question", sql: "SELECT 1" }]);
    expect(recorded).toMatchObject([{ answer: { sql: "SELECT count(*) FROM customers", rows: [["42"]] } }]);
    expect(message?.parts.find((part) => part.type === "data-thread")).toMatchObject({ data: { id: threadId } });
    expect(message?.parts.find((part) => part.type === "data-turn")).toMatchObject({ data: { id: "turn-1" } });
  });

  it("stores the turn before it streams the answer, so a reload the moment it appears finds it", async () => {
    const streamed: string[] = [];
    let streamedWhileRecording: string | undefined;
    const threads: ThreadRecorder = {
      open: async (_id, question) => ({ id: threadId, title: question, previousTurns: [] }),
      async record() {
        // Give the reader below every chance to take what was already written.
        for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setImmediate(resolve));
        streamedWhileRecording = streamed.join("");
        return "turn-1";
      },
    };
    const response = await handleChatRequest(
      new Request("http://nlq.test/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "how many customers are there?" }] }],
        }),
      }),
      {
        answer: async () => answer,
        settings: () => ({ maxQuestionLength: 4_000 }) as AnswerQuestionOptions["settings"],
        openSession: async () => ({ executor, release: () => undefined }),
        threads,
      },
    );
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) streamed.push(chunk.value);
    expect(streamedWhileRecording).toContain('"data-thread"');
    expect(streamedWhileRecording).not.toContain('"data-answer"');
    expect(streamed.join("")).toContain('"data-answer"');
    expect(streamed.join("").indexOf('"data-answer"')).toBeLessThan(streamed.join("").indexOf('"data-turn"'));
  });

  it("records a failed question without SQL context and answers even when the history store fails", async () => {
    const { threads, recorded } = recorder();
    const failing = await ask(
      {
        answer: async () => {
          throw new DatabaseError("permission denied for table orders", { sql: "SELECT 1 FROM orders", code: "42501" });
        },
        settings: () => ({ maxQuestionLength: 4_000 }) as AnswerQuestionOptions["settings"],
        openSession: async () => ({ executor, release: () => undefined }),
        threads,
      },
      {},
    );
    expect(failing?.parts.find((part) => part.type === "data-error")).toMatchObject({ data: { code: "42501" } });
    expect(recorded).toMatchObject([{ error: { code: "42501" }, question: "how many customers are there?" }]);

    const logged: unknown[] = [];
    const broken: ThreadRecorder = {
      open: async () => {
        throw new Error("metadata store down");
      },
      record: async () => undefined,
    };
    const answered = await ask(
      {
        answer: async () => answer,
        settings: () => ({ maxQuestionLength: 4_000 }) as AnswerQuestionOptions["settings"],
        openSession: async () => ({ executor, release: () => undefined }),
        threads: broken,
        logError: (error) => logged.push(error),
      },
      {},
    );
    expect(answered?.parts.find((part) => part.type === "data-answer")).toBeDefined();
    expect(logged).toHaveLength(1);
  });
});
