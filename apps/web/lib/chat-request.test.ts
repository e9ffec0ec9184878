import { describe, expect, it } from "vitest";
import { questionFromBody } from "./chat-request";
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
    expect(() => questionFromBody({ messages: [userMessage("x".repeat(4_001))] })).toThrow(/longer than 4000/);
  });
});
