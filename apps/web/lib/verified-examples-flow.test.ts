import { type MetadataStore, openMetadataStore, VerifiedExampleStore } from "@nlq/adapters";
import { type AnswerQuestionOptions, type QueryExecutor, similarExamples } from "@nlq/engine";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleChatRequest } from "./chat-handler";
import type { NlqUIMessage } from "./chat-message";

// Feedback that teaches, from the store to the engine: a pair accepted on one data source is passed as a verified
// example with the next similar question on that data source, and not with unrelated questions or other databases.
const shop = "127.0.0.1:5432/shop";
const executor: QueryExecutor = { name: "fake", query: async () => ({ fields: [], rows: [], command: "SELECT 0" }) };
let store: MetadataStore;

beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

/** The verified examples the engine received for a question asked on `dataSource`. */
async function examplesPassed(question: string, dataSource: string) {
  const examples = new VerifiedExampleStore(store.database);
  let passed: AnswerQuestionOptions["verifiedExamples"];
  const transport = new DefaultChatTransport<NlqUIMessage>({
    api: "http://nlq.test/api/chat",
    fetch: async (input, init) =>
      handleChatRequest(new Request(input, init), {
        answer: async (options) => {
          passed = options.verifiedExamples;
          throw new Error("stop after the options are seen");
        },
        settings: () => ({ maxQuestionLength: 4_000 }) as AnswerQuestionOptions["settings"],
        openSession: async () => ({ executor, release: () => undefined }),
        verifiedExamples: async (text) =>
          similarExamples(text, await examples.list(dataSource)).map((row) => ({
            question: row.question,
            sql: row.sql,
          })),
        logError: () => undefined,
      }),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal: undefined,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }],
  });
  for await (const _message of readUIMessageStream<NlqUIMessage>({ stream: chunks })) {
    // drain
  }
  return passed;
}

describe("verified examples reach the engine", () => {
  it("passes an accepted pair with a similar later question on the same data source only", async () => {
    expect(await examplesPassed("how many customers do we have?", shop)).toBeUndefined();
    await new VerifiedExampleStore(store.database).save({
      dataSource: shop,
      question: "how many customers are there?",
      sql: "SELECT count(*) FROM customers WHERE NOT deleted",
      source: "accepted",
      verifiedBy: "alice",
    });
    expect(await examplesPassed("how many customers do we have?", shop)).toEqual([
      { question: "how many customers are there?", sql: "SELECT count(*) FROM customers WHERE NOT deleted" },
    ]);
    expect(await examplesPassed("which tables hold invoices?", shop)).toBeUndefined();
    expect(await examplesPassed("how many customers do we have?", "127.0.0.1:5432/other")).toBeUndefined();
  });
});
