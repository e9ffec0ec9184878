import { describe, expect, it } from "vitest";
import { pendingQuestionValue, responseError, restoredPendingQuestion, sessionEnded } from "./response-error";

describe("responseError", () => {
  it("reads the server's typed error from the transport's message", () => {
    const error = new Error(
      JSON.stringify({
        error: { code: "54000", name: "QuestionTooLongError", message: "too long", reason: "too-long", limit: 4000 },
      }),
    );
    expect(responseError(error)).toEqual({
      code: "54000",
      name: "QuestionTooLongError",
      message: "too long",
      reason: "too-long",
      limit: 4000,
    });
  });

  it("is undefined for a network failure or another body", () => {
    expect(responseError(new Error("Failed to fetch"))).toBeUndefined();
    expect(responseError(new Error('{"message":"x"}'))).toBeUndefined();
    expect(responseError(undefined)).toBeUndefined();
  });

  it("tells an ended session by its reason or its SQLSTATE class", () => {
    expect(sessionEnded({ code: "28000", name: "SignInRequiredError", message: "sign in" })).toBe(true);
    expect(sessionEnded({ code: "54000", name: "QuestionTooLongError", message: "long" })).toBe(false);
    expect(sessionEnded(undefined)).toBe(false);
  });
});

describe("a question kept across an ended session", () => {
  it("is put back for the role that typed it, and for no other role signing in on the same tab", () => {
    const stored = pendingQuestionValue("analyst_a", "which customers in Bergen spent most?");
    expect(restoredPendingQuestion(stored, "analyst_a")).toBe("which customers in Bergen spent most?");
    expect(restoredPendingQuestion(stored, "analyst_b")).toBeUndefined();
  });

  it("gives nothing for what it cannot read (an older bare string, nothing stored)", () => {
    expect(restoredPendingQuestion("which customers?", "analyst_a")).toBeUndefined();
    expect(restoredPendingQuestion(null, "analyst_a")).toBeUndefined();
    expect(restoredPendingQuestion(pendingQuestionValue("analyst_a", ""), "analyst_a")).toBeUndefined();
  });
});
