import { describe, expect, it } from "vitest";
import { UnsupportedQuestionBatchError } from "./question-errors";
import { resultFormatsOf } from "./result-formats";

describe("resultFormatsOf", () => {
  it("reads Bind's result format codes as PostgreSQL does", () => {
    expect(resultFormatsOf([], 3)).toEqual([0, 0, 0]);
    expect(resultFormatsOf([1], 3)).toEqual([1, 1, 1]);
    expect(resultFormatsOf([0, 1, 0], 3)).toEqual([0, 1, 0]);
  });

  it("refuses a count that fits neither and unknown codes", () => {
    expect(() => resultFormatsOf([0, 1], 3)).toThrow(/2 result formats but query has 3 columns/);
    expect(() => resultFormatsOf([2], 1)).toThrow(UnsupportedQuestionBatchError);
  });
});
