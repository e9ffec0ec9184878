import { selectCandidateOutputSchema, selectTablesOutputSchema } from "@nlq/prompts";
import { describe, expect, it } from "vitest";
import { extractJsonObject, recoverJsonOutput } from "./recover-json";

describe("extractJsonObject", () => {
  it("reads fenced, embedded and plain objects", () => {
    expect(extractJsonObject('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(extractJsonObject('Sure! {"a": {"b": 2}} hope it helps')).toEqual({ a: { b: 2 } });
    expect(extractJsonObject("no json here")).toBeUndefined();
    expect(extractJsonObject("{not json}")).toBeUndefined();
  });
});

describe("recoverJsonOutput", () => {
  it("fills a nullable property the reply left out with null", () => {
    expect(recoverJsonOutput('{"answer": "B"}', selectCandidateOutputSchema)).toEqual({ reasoning: null, answer: "B" });
    expect(recoverJsonOutput('```json\n{"table_names": ["public.a"]}\n```', selectTablesOutputSchema)).toEqual({
      chain_of_thought_reasoning: null,
      table_names: ["public.a"],
    });
  });

  it("never fills a property that may not be null", () => {
    expect(recoverJsonOutput('{"reasoning": "x"}', selectCandidateOutputSchema)).toBeUndefined();
  });
});
