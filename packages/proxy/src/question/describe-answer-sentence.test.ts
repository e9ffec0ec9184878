import { describe, expect, it } from "vitest";
import { describeAnswerSentence } from "./describe-answer-sentence";

describe("describeAnswerSentence", () => {
  it("labels a scripted sentence and leaves a model's as it is", () => {
    expect(
      describeAnswerSentence({ sentence: "There are 3 customers.", model: "scripted:demo.json", scripted: true }),
    ).toBe("answer: There are 3 customers. (scripted replay, not a language model)");
    expect(
      describeAnswerSentence({ sentence: "There are 3 customers.", model: "openai:gpt-4o-mini", scripted: false }),
    ).toBe("answer: There are 3 customers.");
  });
});
