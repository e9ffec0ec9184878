import { QuestionTooLongError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { presetFromBody, previousTurnsFromBody, questionFromBody } from "./chat-request";
import { ChatRequestError } from "./web-errors";

const userMessage = (text: string) => ({ id: "m", role: "user", parts: [{ type: "text", text }] });

describe("questionFromBody", () => {
  it("reads the text of the last user message as useChat sends it", () => {
    const body = {
      id: "chat",
      trigger: "submit-message",
      messages: [
        userMessage("first question"),
        { id: "a", role: "assistant", parts: [{ type: "data-step", id: "catalog", data: {} }] },
        userMessage("  how many customers are there?  "),
      ],
    };
    expect(questionFromBody(body)).toBe("how many customers are there?");
  });

  it("refuses bodies without a question", () => {
    expect(() => questionFromBody({ messages: [userMessage("   ")] })).toThrow(ChatRequestError);
    expect(() => questionFromBody({ messages: [] })).toThrow(ChatRequestError);
    expect(() => questionFromBody("hello")).toThrow(ChatRequestError);
  });

  it("refuses a question over the limit (default 4000) with QuestionTooLongError, quoting none of it", () => {
    expect(questionFromBody({ messages: [userMessage("x".repeat(4_000))] })).toHaveLength(4_000);
    expect(() => questionFromBody({ messages: [userMessage("x".repeat(4_001))] })).toThrow(
      "the question is 4001 characters long; nlq accepts at most 4000 (NLQ_MAX_QUESTION_LENGTH)",
    );
    expect(() => questionFromBody({ messages: [userMessage("how many orders?")] }, 10)).toThrow(QuestionTooLongError);
  });
});

describe("previousTurnsFromBody", () => {
  const answerMessage = (sql: string) => ({
    id: "a",
    role: "assistant",
    parts: [
      { type: "data-step", id: "catalog", data: { label: "Read the schema", status: "done" } },
      { type: "data-answer", id: "answer", data: { sql, rows: [] } },
    ],
  });
  const errorMessage = { id: "e", role: "assistant", parts: [{ type: "data-error", id: "error", data: {} }] };

  it("pairs each earlier question with the SQL of its answer, oldest first, without the current question", () => {
    const body = {
      messages: [
        userMessage("how many customers are there?"),
        answerMessage("SELECT count(*) FROM customers"),
        userMessage("what is the bounce rate?"),
        errorMessage,
        userMessage("and in Berlin?"),
      ],
    };
    expect(previousTurnsFromBody(body)).toEqual([
      { question: "how many customers are there?", sql: "SELECT count(*) FROM customers" },
      { question: "what is the bounce rate?" },
    ]);
  });

  it("keeps only the latest turns and ignores malformed bodies", () => {
    const messages = Array.from({ length: 10 }, (_, turn) => [
      userMessage(`q${turn}`),
      answerMessage(`SELECT ${turn}`),
    ]).flat();
    const turns = previousTurnsFromBody({ messages: [...messages, userMessage("now")] });
    expect(turns.map((turn) => turn.question)).toEqual(["q4", "q5", "q6", "q7", "q8", "q9"]);
    expect(previousTurnsFromBody({ messages: [userMessage("first")] })).toEqual([]);
    expect(previousTurnsFromBody(null)).toEqual([]);
  });
});

describe("presetFromBody", () => {
  it("reads a built-in preset name and nothing else", () => {
    expect(presetFromBody({ messages: [], preset: "max" })).toBe("max");
    expect(presetFromBody({ messages: [] })).toBeUndefined();
    expect(presetFromBody({ messages: [], preset: "" })).toBeUndefined();
    // A file path is the operator's choice, never a browser's.
    expect(() => presetFromBody({ messages: [], preset: "/etc/passwd.json" })).toThrow(ChatRequestError);
    expect(() => presetFromBody({ messages: [], preset: 3 })).toThrow(/fast, balanced, max/);
  });
});
