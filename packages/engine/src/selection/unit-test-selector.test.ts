import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelOutputError } from "../errors/model-errors";
import { executedCandidate as candidate } from "../testing/executed-candidate";
import { selectionSetup } from "../testing/selection-setup";
import { createUnitTestSelector } from "./unit-test-selector";

const text = { columnTypes: [25] };
const candidates = [
  candidate(0, "SELECT name FROM shop.items ORDER BY price DESC LIMIT 1", [["Rug"]], text),
  candidate(1, "SELECT name FROM shop.items ORDER BY price LIMIT 1", [["Mug"]], text),
  candidate(2, "SELECT name FROM shop.items ORDER BY price LIMIT 2", [["Mug"], ["Lamp"]], text),
  candidate(3, "SELECT name FROM shop.items ORDER BY price DESC LIMIT 1", [["Rug"]], text),
];
const tests = [
  "The answer SQL query should order by price ascending.",
  "The answer SQL query should return exactly one row.",
  "The answer SQL query should return the item name.",
];

/** Verdicts per test for the clusters in order [Rug ×2, Mug, Mug+Lamp]. */
const verdicts: Record<string, Array<"Passed" | "Failed">> = {
  [tests[0]!]: ["Failed", "Passed", "Passed"],
  [tests[1]!]: ["Passed", "Passed", "Failed"],
  [tests[2]!]: ["Passed", "Passed", "Passed"],
};

function answer(step: string, prompt: string) {
  if (step === "generate-unit-tests") return { reasoning: "order and row count differ", unitTests: tests };
  const test = tests.find((each) => prompt.includes(`*** Unit Test: ***\n${each}`))!;
  return { reasoning: "checked", verdicts: verdicts[test] };
}

describe("unit test selector", () => {
  it("writes k tests in one call, evaluates every representative per test, scores by tests passed", async () => {
    const { options, calls } = await selectionSetup(candidates, answer, { NLQ_UNIT_TESTS: "3" });
    const outcome = await createUnitTestSelector().select(options);
    expect(calls.map((call) => call.step)).toEqual([
      "generate-unit-tests",
      "evaluate-unit-tests",
      "evaluate-unit-tests",
      "evaluate-unit-tests",
    ]);
    const generate = calls[0]!.prompt;
    expect(generate).toContain("generate a set of 3 unit tests");
    // The clusters' representatives in cluster order (largest first), each with its result.
    expect(generate).toContain(
      "Candidate Response #1:\nSELECT name FROM shop.items ORDER BY price DESC LIMIT 1\nExecution result:\nc0\nRug\n(1 row)",
    );
    expect(generate).toContain("Candidate Response #3:\nSELECT name FROM shop.items ORDER BY price LIMIT 2");
    expect(generate).not.toContain("Candidate Response #4");
    for (const [position, test] of tests.entries()) expect(calls[position + 1]!.prompt).toContain(test);
    // Passed: Rug 2, Mug 3, Mug+Lamp 2.
    expect(outcome.cluster.representative.index).toBe(1);
    expect(outcome.confidence).toBe(1);
    expect(outcome.basis).toBe("passed 3 of 3 unit tests written to tell 3 result clusters apart");
  });

  it("keeps at most k tests and breaks score ties by the larger cluster", async () => {
    const { options, calls } = await selectionSetup(
      candidates,
      (step, prompt) =>
        step === "generate-unit-tests"
          ? { reasoning: "", unitTests: [...tests, "  ", "An extra test."] }
          : answer(step, prompt),
      { NLQ_UNIT_TESTS: "2" },
    );
    const outcome = await createUnitTestSelector().select(options);
    expect(calls).toHaveLength(3);
    // Over the first two tests: Rug 1, Mug 2, Mug+Lamp 1.
    expect(outcome.cluster.representative.index).toBe(1);
    expect(outcome.confidence).toBe(1);
    const tie = await selectionSetup(candidates, (step, prompt) =>
      step === "generate-unit-tests" ? { reasoning: "", unitTests: [tests[2]!] } : answer(step, prompt),
    );
    const tied = await createUnitTestSelector({ count: 5 }).select(tie.options);
    // Every cluster passes the one test: the two-member Rug cluster wins; confidence 1 of 1.
    expect(tied.cluster.members.map((member) => member.index)).toEqual([0, 3]);
    expect(tied.confidence).toBe(1);
  });

  it("computes confidence as the winner's share of tests passed", async () => {
    const { options } = await selectionSetup(candidates, (step) =>
      step === "generate-unit-tests"
        ? { reasoning: "", unitTests: ["t1", "t2", "t3", "t4"] }
        : { reasoning: "", verdicts: ["Failed", "Passed", "Failed"] },
    );
    const outcome = await createUnitTestSelector({ count: 4 }).select(options);
    expect(outcome.cluster.representative.index).toBe(1);
    expect(outcome.confidence).toBe(1);
    const mixed = await selectionSetup(candidates, (step, prompt) =>
      step === "generate-unit-tests"
        ? { reasoning: "", unitTests: ["t1", "t2", "t3", "t4"] }
        : {
            reasoning: "",
            verdicts: prompt.includes("\nt4") ? ["Failed", "Failed", "Passed"] : ["Failed", "Passed", "Failed"],
          },
    );
    const three = await createUnitTestSelector({ count: 4 }).select(mixed.options);
    expect(three.cluster.representative.index).toBe(1);
    expect(three.confidence).toBe(3 / 4);
  });

  it("fails with ModelOutputError when the verdicts do not match the candidates", async () => {
    const { options } = await selectionSetup(candidates, (step) =>
      step === "generate-unit-tests" ? { reasoning: "", unitTests: ["t1"] } : { reasoning: "", verdicts: ["Passed"] },
    );
    await expect(createUnitTestSelector().select(options)).rejects.toThrow(ModelOutputError);
  });

  it("writes fewer tests when the call budget is short, and none when it cannot pay for two calls", async () => {
    const short = await selectionSetup(candidates, answer, { NLQ_MAX_LLM_CALLS: "3" });
    await createUnitTestSelector({ count: 5 }).select(short.options);
    expect(short.calls[0]!.prompt).toContain("generate a set of 2 unit tests");
    expect(short.calls).toHaveLength(3);
    const none = await selectionSetup(candidates, answer, { NLQ_MAX_LLM_CALLS: "1" });
    const fallback = await createUnitTestSelector().select(none.options);
    expect(none.calls).toEqual([]);
    expect(fallback.cluster.members.map((member) => member.index)).toEqual([0, 3]);
    expect(fallback.confidence).toBe(0.5);
  });

  it("leaves out a test whose evaluation is unreadable and says so", async () => {
    const { options, calls } = await selectionSetup(candidates, (step, prompt) => {
      if (step === "generate-unit-tests") return { reasoning: "", unitTests: tests.slice(0, 2) };
      // The first test's evaluation has one verdict too few.
      if (prompt.includes(tests[0]!)) return { reasoning: "", verdicts: ["Passed", "Passed"] };
      return answer(step, prompt);
    });
    const outcome = await createUnitTestSelector().select(options);
    expect(calls).toHaveLength(3);
    // Over the second test only: Rug and Mug pass; the larger Rug cluster wins the tie.
    expect(outcome.cluster.members.map((member) => member.index)).toEqual([0, 3]);
    expect(outcome.confidence).toBe(1);
    expect(outcome.basis).toBe(
      "passed 1 of 1 unit tests written to tell 3 result clusters apart (1 more tests left out: their evaluation failed)",
    );
  });

  it("leaves out a test whose evaluation the provider refused, like an unreadable one", async () => {
    const { options } = await selectionSetup(candidates, (step, prompt) => {
      if (step === "generate-unit-tests") return { reasoning: "", unitTests: tests.slice(0, 2) };
      if (prompt.includes(tests[0]!)) {
        throw new APICallError({ message: "refused", url: "http://x", requestBodyValues: {}, statusCode: 400 });
      }
      return answer(step, prompt);
    });
    const outcome = await createUnitTestSelector().select(options);
    expect(outcome.cluster.members.map((member) => member.index)).toEqual([0, 3]);
    expect(outcome.basis).toMatch(/\(1 more tests left out: their evaluation failed\)$/);
  });

  it("makes no call for one cluster", async () => {
    const { options, calls } = await selectionSetup([candidates[0]!, candidates[3]!], answer);
    const outcome = await createUnitTestSelector().select(options);
    expect(calls).toEqual([]);
    expect(outcome.confidence).toBe(1);
  });
});
