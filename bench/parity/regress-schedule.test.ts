import { describe, expect, it } from "vitest";
import { scheduledTests } from "./regress-schedule";

describe("scheduledTests", () => {
  it("lists the tests of each test: line in order, skipping comments and blank lines", () => {
    const schedule = "# the setup\ntest: test_setup\n\n# parallel group\ntest: boolean char  name # trailing\n";
    expect(scheduledTests(schedule)).toEqual(["test_setup", "boolean", "char", "name"]);
  });

  it("refuses a line it does not understand", () => {
    expect(scheduledTests("test: a\nignore: a\n")).toEqual(["a"]);
    expect(() => scheduledTests("test: a\nrun: b\n")).toThrow(/line 2/);
  });
});
