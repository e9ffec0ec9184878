import { describe, expect, it } from "vitest";
import { responseError, sessionEnded } from "./response-error";

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
