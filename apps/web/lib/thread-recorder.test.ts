import { type MetadataStore, openMetadataStore, WebThreadStore } from "@nlq/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerData } from "./chat-message";
import { createThreadRecorder, maximumStoredRows } from "./thread-recorder";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const answer = (rows: number): AnswerData => ({
  question: "list the items",
  sql: "SELECT id FROM item",
  fields: [{ name: "id", dataTypeId: 23 }],
  rows: Array.from({ length: rows }, (_, index) => [String(index)]),
  truncated: false,
  confidence: 1,
  model: { id: "scripted:x", scripted: true },
  elapsedMilliseconds: 1,
  candidates: 1,
  languageModelCalls: 1,
});

describe("createThreadRecorder", () => {
  it("opens a new thread, records capped answers and errors, and gives the stored turns back as context", async () => {
    const owner = { role: "alice", dataSource: "127.0.0.1:5432/shop" };
    const recorder = createThreadRecorder(new WebThreadStore(store.database), owner);
    const thread = await recorder.open(undefined, "list the items", 6);
    expect(thread.previousTurns).toEqual([]);
    const turnId = await recorder.record(thread.id, "list the items", { answer: answer(maximumStoredRows + 50) });
    expect(turnId).toMatch(/^[0-9a-f-]{36}$/);
    await recorder.record(thread.id, "and the bounce rate?", {
      error: { code: "22023", name: "UnanswerableQuestionError", message: "no", sql: "SELECT bad" },
      question: "and the bounce rate?",
    });

    const again = await recorder.open(thread.id, "next question", 6);
    expect(again.id).toBe(thread.id);
    // A failed turn carries no SQL forward.
    expect(again.previousTurns).toEqual([
      { question: "list the items", sql: "SELECT id FROM item" },
      { question: "and the bounce rate?" },
    ]);
    const stored = await new WebThreadStore(store.database).get(owner, thread.id);
    const reply = stored?.turns[0]?.reply as { answer: AnswerData & { storedRows?: number } };
    expect(reply.answer.rows).toHaveLength(maximumStoredRows);
    expect(reply.answer.storedRows).toBe(maximumStoredRows);

    // Another role continuing this thread id gets a new thread of its own instead.
    const other = createThreadRecorder(new WebThreadStore(store.database), { ...owner, role: "bob" });
    const bobs = await other.open(thread.id, "steal it", 6);
    expect(bobs.id).not.toBe(thread.id);
    expect(bobs.previousTurns).toEqual([]);
  });
});
