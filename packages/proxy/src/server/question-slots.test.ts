import { describe, expect, it } from "vitest";
import { QuestionSlots, TooManyQuestionsError } from "./question-slots";

describe("QuestionSlots", () => {
  it("refuses a question past the per-role cap, naming it, while other roles still get slots", () => {
    const slots = new QuestionSlots({ perProxy: 10, perRole: 2 });
    const first = slots.take("alice");
    slots.take("alice");
    expect(() => slots.take("alice")).toThrow(TooManyQuestionsError);
    expect(() => slots.take("alice")).toThrow(/role "alice".*NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE/);
    expect(() => slots.take("bob")).not.toThrow();
    first();
    first(); // giving a slot back twice gives back one
    expect(() => slots.take("alice")).not.toThrow();
    expect(() => slots.take("alice")).toThrow(/per role/);
    expect(slots.running).toBe(3);
  });

  it("refuses a question past the per-proxy cap with SQLSTATE 53400, naming it", () => {
    const slots = new QuestionSlots({ perProxy: 2, perRole: 5 });
    const release = slots.take("a");
    slots.take("b");
    let refusal: unknown;
    try {
      slots.take("c");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TooManyQuestionsError);
    expect(refusal).toMatchObject({ code: "53400" });
    expect((refusal as Error).message).toMatch(/at most 2 at a time \(NLQ_MAX_CONCURRENT_QUESTIONS\)/);
    release();
    expect(() => slots.take("c")).not.toThrow();
  });
});
