import { ModelCallError, ModelConfigurationError, NlqError, QuestionTooLongError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { errorData, withoutServerPaths, withoutStepNames } from "./error-data";
import { SignInRequiredError } from "./web-errors";

describe("errorData", () => {
  it("never shows a server path, only the file name", () => {
    expect(
      errorData(
        new ModelConfigurationError("no recorded response in /work/main/fixtures/demo-model.json for this question"),
      ).message,
    ).toBe("no recorded response in demo-model.json for this question");
    expect(withoutServerPaths("cannot read file:///srv/nlq/a/b.json")).toBe("cannot read b.json");
    // SQL and ratios are left alone.
    expect(withoutServerPaths("division by zero in a/b")).toBe("division by zero in a/b");
    expect(withoutServerPaths("SELECT x / 2")).toBe("SELECT x / 2");
  });

  it("hides untyped errors entirely", () => {
    expect(errorData(new Error("ENOENT /srv/secret/file"))).toMatchObject({
      code: "XX000",
      message: expect.not.stringContaining("/srv"),
    });
  });

  it("says what happened in the page's own words, with the limit of a question too long", () => {
    expect(errorData(new QuestionTooLongError(5000, 4000))).toMatchObject({
      code: "54000",
      reason: "too-long",
      length: 5000,
      limit: 4000,
      message: "Your question is 5,000 characters long; the limit is 4,000. Shorten it and ask again.",
    });
    expect(errorData(new SignInRequiredError())).toMatchObject({ code: "28000", reason: "session-ended" });
    expect(
      errorData(new ModelConfigurationError('no language model is configured for step "generate-candidate".\nhelp')),
    ).toMatchObject({ code: "55000", reason: "model-not-configured", message: expect.stringContaining("NLQ_MODEL") });
  });

  it("tells the scripted demo's unrecorded question apart, without step names or the fixture's path", () => {
    const data = errorData(
      new ModelCallError(
        'scripted model has no response for step "extract-keywords" and question "what is up?" in /work/main/fixtures/demo-model.json',
        { step: "extract-keywords" },
      ),
    );
    expect(data).toMatchObject({ code: "58000", reason: "not-recorded" });
    expect(data.message).not.toMatch(/extract-keywords|\/work\/|step/);
  });

  it("tells a refusal from a failed call and drops internal step names", () => {
    const refused = new NlqError('model output for step "generate-candidate" does not match its schema', {
      code: "58000",
      cause: { message: "No object generated", finishReason: "content-filter" },
    });
    Object.defineProperty(refused, "name", { value: "ModelOutputError" });
    Object.assign(refused, { output: "" });
    expect(errorData(refused)).toMatchObject({ reason: "model-refused" });
    const declining = new NlqError("model output does not match its schema", { code: "58000" });
    Object.defineProperty(declining, "name", { value: "ModelOutputError" });
    Object.assign(declining, { output: "I'm sorry, but I can't help with that." });
    expect(errorData(declining).reason).toBe("model-refused");
    const failed = errorData(
      new ModelCallError('language-model call for step "select-tables" failed: 503 Service Unavailable', {
        step: "select-tables",
      }),
    );
    expect(failed).toMatchObject({ reason: "model-failed" });
    expect(failed.message).toBe(
      "The language model did not answer: language-model call failed: 503 Service Unavailable",
    );
    expect(withoutStepNames('canceling statement due to the deadline (step "fix")')).toBe(
      "canceling statement due to the deadline",
    );
  });
});
