import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelOutputError } from "../errors/model-errors";
import { executedCandidate as candidate } from "../testing/executed-candidate";
import { selectionSetup } from "../testing/selection-setup";
import type { ExecutedCandidate } from "./candidate-selector";
import { pairwiseCallCount } from "./pairwise-call-count";
import { createPairwiseSelector } from "./pairwise-selector";

const cheapest = candidate(0, "SELECT name FROM shop.items ORDER BY price LIMIT 1", [["Mug"]], { columnTypes: [25] });
const dearest = candidate(1, "SELECT name FROM shop.items ORDER BY price DESC LIMIT 1", [["Rug"]], {
  columnTypes: [25],
});
const byCategory = candidate(
  2,
  "SELECT c.title FROM shop.items i JOIN shop.categories c ON c.id = i.category_id ORDER BY i.price LIMIT 1",
  [["Kitchen"]],
  { columnTypes: [25] },
);
const cheapestAgain = candidate(3, "select name from shop.items order by price limit 1", [["Mug"]], {
  columnTypes: [25],
});

/** The candidates numbered in the order given. */
const inOrder = (...candidates: ExecutedCandidate[]) => candidates.map((each, index) => ({ ...each, index }));

/** Which candidate SQL a prompt shows as A or B. */
function shown(prompt: string, side: "A" | "B"): string {
  const match = new RegExp(`Candidate ${side}\\n(.*)\\nExecution result`).exec(prompt);
  return match?.[1] ?? "";
}

describe("pairwise selector", () => {
  it("asks each pair of cluster representatives in both orders, on the union of their tables and columns", async () => {
    // The model prefers the query that lists the cheapest item wherever it stands, else answers "A".
    const { options, calls } = await selectionSetup([cheapest, dearest, byCategory, cheapestAgain], (_, prompt) => ({
      reasoning: "ascending price gives the cheapest item",
      answer: shown(prompt, "B") === cheapest.sql ? "B" : "A",
    }));
    expect(options.clusters.map((cluster) => cluster.members.length)).toEqual([2, 1, 1]);
    const outcome = await createPairwiseSelector().select(options);
    // 3 clusters: 3 pairs × 2 orders.
    expect(calls.map((call) => call.step)).toEqual(Array(6).fill("select-candidate"));
    const pairs = calls.map((call) => [shown(call.prompt, "A"), shown(call.prompt, "B")]);
    expect(pairs).toEqual([
      [cheapest.sql, dearest.sql],
      [dearest.sql, cheapest.sql],
      [cheapest.sql, byCategory.sql],
      [byCategory.sql, cheapest.sql],
      [dearest.sql, byCategory.sql],
      [byCategory.sql, dearest.sql],
    ]);
    // Union schema: items (name, price) for the first pair; the join pair adds categories and the key columns used.
    const first = calls[0]!.prompt;
    expect(first).toContain("CREATE TABLE shop.items (\n  name text,\n  price text\n);");
    expect(first).not.toContain("categories");
    expect(first).not.toContain("suppliers");
    const join = calls[2]!.prompt;
    expect(join).toContain("CREATE TABLE shop.items (\n  id text,\n  name text,\n  price text,\n  category_id text,");
    expect(join).toContain("FOREIGN KEY (category_id) REFERENCES shop.categories (id)");
    expect(join).toContain("CREATE TABLE shop.categories (\n  id text,\n  title text,\n  PRIMARY KEY (id)\n);");
    expect(join).not.toContain("suppliers");
    // Results are shown.
    expect(first).toContain("Execution result\nc0\nMug\n(1 row)");
    // Alg. 3 scores per candidate: cheapest 1 (its twin) + 2 orders × 1 (dearest) + 2 × 1 (byCategory) = 5 of 5.
    expect(outcome.cluster.representative.index).toBe(0);
    expect(outcome.confidence).toBe(5 / 5);
    expect(outcome.basis).toBe(
      "won 4 of 4 pairwise comparisons against 2 other result clusters; CHASE-SQL Alg. 3 score 5 of 5, 1 from candidates with the same result",
    );
    expect(pairwiseCallCount(options.candidates, options.clusters)).toEqual({
      made: 6,
      allPairs: 12,
      differingPairs: 10,
    });
  });

  it("scores wins; with a position-biased model every cluster ties and the larger, then earlier cluster wins", async () => {
    const { options, calls } = await selectionSetup(inOrder(dearest, cheapest, byCategory, cheapestAgain), () => ({
      answer: "A",
    }));
    const outcome = await createPairwiseSelector().select(options);
    expect(calls).toHaveLength(6);
    // Always "A": every representative wins 2 of its 4 comparisons. Alg. 3: cheapest 1 + 1·1 + 1·1 = 3 of 5; dearest
    // and byCategory 1·2 + 1·1 = 3 of 6: a tie the two-member cluster (cheapest) wins.
    expect(outcome.cluster.representative.index).toBe(1);
    expect(outcome.confidence).toBe(3 / 5);
  });

  it("breaks a tie between equally large clusters by the earlier first member", async () => {
    const { options } = await selectionSetup(inOrder(dearest, cheapest), () => ({ answer: "B" }));
    const outcome = await createPairwiseSelector().select(options);
    expect(outcome.cluster.representative.sql).toBe(dearest.sql);
    expect(outcome.confidence).toBe(0.5);
  });

  it("compares only the largest clusters the call budget pays for, and falls back to the largest without calls", async () => {
    const four = inOrder(dearest, cheapest, byCategory, cheapestAgain);
    const tight = await selectionSetup(four, () => ({ answer: "B" }), { NLQ_MAX_LLM_CALLS: "3" });
    const outcome = await createPairwiseSelector().select(tight.options);
    // 3 clusters need 6 calls; 3 calls pay for the two largest (2 calls): [cheapest ×2] and [dearest].
    expect(tight.calls).toHaveLength(2);
    expect(tight.calls.every((call) => !call.prompt.includes("categories"))).toBe(true);
    expect(outcome.basis).toBe(
      "won 1 of 2 pairwise comparisons against 1 other result clusters; CHASE-SQL Alg. 3 score 2 of 3, 1 from candidates with the same result (the 1 smallest of 3 clusters not compared: call budget)",
    );
    const none = await selectionSetup(four, () => ({ answer: "B" }), { NLQ_MAX_LLM_CALLS: "1" });
    const fallback = await createPairwiseSelector().select(none.options);
    expect(none.calls).toEqual([]);
    expect(fallback.cluster.members.map((member) => member.index)).toEqual([1, 3]);
    expect(fallback.confidence).toBe(0.5);
    expect(fallback.basis).toMatch(/^no model calls left for pairwise comparison; 2 of 4 candidates/);
  });

  it("scores as CHASE-SQL Alg. 3: agreeing candidates score, and beating a larger cluster is worth more", async () => {
    // Clusters: cheapest ×2, dearest, byCategory. The model prefers dearest over cheapest, cheapest over byCategory, and
    // byCategory over dearest, whatever the order: every representative wins 2 of its 4 comparisons.
    const beats: Record<string, string> = {
      [cheapest.sql]: byCategory.sql,
      [dearest.sql]: cheapest.sql,
      [byCategory.sql]: dearest.sql,
    };
    const { options } = await selectionSetup(inOrder(cheapest, dearest, byCategory, cheapestAgain), (_, prompt) => ({
      reasoning: null,
      answer: beats[shown(prompt, "A")] === shown(prompt, "B") ? "A" : "B",
    }));
    const outcome = await createPairwiseSelector().select(options);
    // Counting comparisons only, all three tie at 2 and the larger cluster (cheapest) would win. Alg. 3 per candidate:
    // cheapest 1 (its twin) + 2·1 (byCategory) = 3; dearest 2·2 (both cheapest candidates) = 4; byCategory 2·1 = 2.
    expect(outcome.cluster.representative.sql).toBe(dearest.sql);
    expect(outcome.confidence).toBe(4 / 6);
    expect(outcome.basis).toBe(
      "won 2 of 4 pairwise comparisons against 2 other result clusters; CHASE-SQL Alg. 3 score 4 of 6",
    );
  });

  it("counts a refused comparison for neither side, like an unreadable one", async () => {
    const two = inOrder(dearest, cheapest);
    let call = 0;
    const refused = await selectionSetup(two, () => {
      if (call++ === 0) {
        throw new APICallError({ message: "refused", url: "http://x", requestBodyValues: {}, statusCode: 400 });
      }
      return { reasoning: null, answer: "A" };
    });
    const outcome = await createPairwiseSelector().select(refused.options);
    expect(outcome.cluster.representative.sql).toBe(cheapest.sql);
    expect(outcome.basis).toMatch(/\(1 of 2 answers failed, counted for neither\)$/);
  });

  it("gives an unreadable answer no point and fails only when every answer is unreadable", async () => {
    const two = inOrder(dearest, cheapest);
    let call = 0;
    const partly = await selectionSetup(two, () => (call++ === 0 ? { answer: "maybe" } : { answer: "A" }));
    const outcome = await createPairwiseSelector().select(partly.options);
    // Second call shows cheapest as A and it wins; the first answer counts for neither.
    expect(outcome.cluster.representative.sql).toBe(cheapest.sql);
    expect(outcome.confidence).toBe(0.5);
    expect(outcome.basis).toBe(
      "won 1 of 2 pairwise comparisons against 1 other result clusters; CHASE-SQL Alg. 3 score 1 of 2 (1 of 2 answers failed, counted for neither)",
    );
    const never = await selectionSetup(two, () => ({ answer: "maybe" }));
    await expect(createPairwiseSelector().select(never.options)).rejects.toThrow(ModelOutputError);
  });

  it("runs comparisons concurrently up to the preset's concurrency, each with the sample number of its pair", async () => {
    let running = 0;
    let most = 0;
    const { options, calls } = await selectionSetup(
      inOrder(dearest, cheapest, byCategory),
      async (_, prompt) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return { answer: shown(prompt, "A") === cheapest.sql ? "A" : "B" };
      },
      { NLQ_CONCURRENCY: "2" },
    );
    const outcome = await createPairwiseSelector().select(options);
    expect(calls).toHaveLength(6);
    expect(most).toBe(2);
    expect(outcome.cluster.representative.sql).toBe(cheapest.sql);
    expect(outcome.confidence).toBe(1);
    const sequential = await selectionSetup(
      inOrder(dearest, cheapest, byCategory),
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { answer: "A" };
      },
      { NLQ_CONCURRENCY: "1" },
    );
    most = 0;
    await createPairwiseSelector().select(sequential.options);
    expect(most).toBe(1);
  });

  it("makes no call for one cluster", async () => {
    const { options, calls } = await selectionSetup([cheapest, cheapestAgain], () => ({ answer: "A" }));
    const outcome = await createPairwiseSelector().select(options);
    expect(calls).toEqual([]);
    expect(outcome.confidence).toBe(1);
    expect(pairwiseCallCount(options.candidates, options.clusters)).toEqual({
      made: 0,
      allPairs: 2,
      differingPairs: 0,
    });
  });

  it("counts calls saved by cluster pairing against all pairs", () => {
    const candidates = [0, 1, 2, 3, 4, 5].map((index) => candidate(index, `SELECT ${index}`, [[String(index)]]));
    const clusters = [
      { members: candidates.slice(0, 3), representative: candidates[0]! },
      { members: candidates.slice(3, 5), representative: candidates[3]! },
      { members: candidates.slice(5), representative: candidates[5]! },
    ];
    expect(pairwiseCallCount(candidates, clusters)).toEqual({ made: 6, allPairs: 30, differingPairs: 22 });
  });
});
