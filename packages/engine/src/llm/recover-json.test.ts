import { describe, expect, it } from "vitest";
import { extractJsonObject } from "./recover-json";

describe("extractJsonObject", () => {
  it("reads fenced, embedded and plain objects", () => {
    expect(extractJsonObject('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(extractJsonObject('Sure! {"a": {"b": 2}} hope it helps')).toEqual({ a: { b: 2 } });
    expect(extractJsonObject("no json here")).toBeUndefined();
    expect(extractJsonObject("{not json}")).toBeUndefined();
  });
});
