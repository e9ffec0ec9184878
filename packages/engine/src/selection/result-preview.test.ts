import { describe, expect, it } from "vitest";
import { cappedResult } from "../testing/executed-candidate";
import { resultPreview } from "./result-preview";

describe("resultPreview", () => {
  it("shows the header, the first rows, NULL and the row count", () => {
    expect(resultPreview(cappedResult([["1", null]]))).toBe("c0 | c1\n1 | NULL\n(1 row)");
    const rows = Array.from({ length: 7 }, (_, index) => [String(index)]);
    expect(resultPreview(cappedResult(rows), 2)).toBe("c0\n0\n1\n(first 2 of 7 rows)");
    expect(resultPreview(cappedResult([]))).toBe("c0\n(0 rows)");
  });

  it("says when a cap cut the result and shortens long cells", () => {
    expect(resultPreview(cappedResult([["a"], ["b"]], { truncated: true }), 1)).toBe(
      "c0\na\n(first 1 of at least 2 rows (cut by the row limit))",
    );
    expect(resultPreview(cappedResult([["x".repeat(100)]]))).toBe(`c0\n${"x".repeat(80)}…\n(1 row)`);
  });
});
