import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { generateDemoDataset, loadDemoData } from "@nlq/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { runCommand } from "./run-command.test-helpers";

// `nlq ask --preset max` on the demo database with the demo's scripted model (recorded responses, no language model):
// every generator writes its samples, the fixer repairs the sample that fails on purpose, and the pairwise selection
// agent chooses between the two distinct results.

let database: TestDatabase;
const home = mkdtempSync(path.join(tmpdir(), "nlq-ask-max-"));

beforeAll(async () => {
  database = await createTestDatabase("nlq_ask_max");
  await loadDemoData({ url: database.url, dataset: generateDemoDataset() });
}, 120_000);
afterAll(async () => {
  await database?.drop();
  rmSync(home, { recursive: true, force: true });
});

describe("nlq ask --preset max", () => {
  it("runs all generators, the fixer and the pairwise selector, and prints the real confidence and calls per step", async () => {
    const { stdout, stderr, exitCode } = await runCommand(
      registerAskCommand,
      ["ask", "which customers are from Berlin?", "--url", database.url, "--preset", "max"],
      { environment: { NLQ_HOME: home, NLQ_MODEL: "scripted:fixtures/demo-model.json" } },
    );
    expect(exitCode).toBeFalsy();
    expect(stdout).toMatch(/WHERE lower\(trim\(city\)\) = 'berlin'/);
    expect(stdout).toContain(
      "selection: confidence 90% (won 2 of 2 pairwise comparisons against 1 other result clusters; CHASE-SQL Alg. 3 score 10 of 10, 8 from candidates with the same result; at most 9 of 10 candidates (90%): the others returned different rows); 10 candidates, 2 distinct results, chosen by pairwise",
    );
    for (const line of [
      "  generate-candidate: 1 call",
      "  generate-divide-and-conquer: 3 calls",
      "  generate-query-plan: 3 calls",
      "  synthesize-examples: 3 calls",
      "  generate-from-examples: 3 calls",
      "  fix-candidate: 1 call",
      "  select-candidate: 2 calls",
      "  summarize-answer: 1 call",
    ]) {
      expect(stdout).toContain(line);
    }
    expect(stdout).toContain(
      "answer: These are the customers whose city is Berlin, however its capitals or spaces were typed. (scripted replay, not a language model)",
    );
    expect(stdout).toContain("(scripted replay, not a language model)");
    expect(stderr).toMatch(/Fixing candidate 7 \(attempt 1\): 42703: column "town" does not exist/);
  }, 60_000);
});
