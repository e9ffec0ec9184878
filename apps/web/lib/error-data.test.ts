import { ModelConfigurationError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { errorData, withoutServerPaths } from "./error-data";

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
});
