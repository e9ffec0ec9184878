import { describe, expect, it } from "vitest";
import { attributePrompts, median, requestPromptText } from "./prompt-characters";

describe("prompt characters", () => {
  it("reads the prompt of a Responses API and a chat completions request, not its schema", () => {
    expect(
      requestPromptText({
        model: "relay",
        instructions: "You write SQL.",
        input: [{ role: "user", content: [{ type: "input_text", text: "How many customers?" }] }],
        text: { format: { type: "json_schema", schema: { properties: { sql: { type: "string" } } } } },
      }),
    ).toBe("You write SQL.\nHow many customers?");
    expect(
      requestPromptText({
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "q" },
        ],
      }),
    ).toBe("sys\nq");
  });

  it("credits each prompt to the longest question it carries, and counts the rest apart", () => {
    const questions = [
      { id: "a", question: "How many customers?" },
      { id: "b", question: "How many customers? Return their names." },
      { id: "c", question: "Which ticker?" },
      { id: "d", question: "Which ticker?" },
    ];
    const figures = attributePrompts(
      ["Q: How many customers? Return their names.", "Q: How many customers?", "Q: Which ticker?", "unrelated"],
      questions,
    );
    expect([...figures.charactersByQuestion]).toEqual([
      ["a", 22],
      ["b", 42],
      ["c", 0],
      ["d", 0],
    ]);
    expect(figures.unattributed).toBe(2);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
