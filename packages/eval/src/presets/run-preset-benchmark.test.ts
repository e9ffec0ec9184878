import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPresetResults } from "./format-preset-results";
import { summarizePresets } from "./preset-report";
import { runPresetBenchmark } from "./run-preset-benchmark";

// The harness on a tiny database with an AI SDK mock model (no language model): the generators disagree on purpose
// (query plan counts only French customers), so `max` asks the pairwise agent and `balanced` self-consistency.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_bench_presets",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');`,
  );
});
afterAll(async () => {
  await database?.drop();
});

const countAll = "SELECT count(*) AS n FROM customers";
const countFrench = "SELECT count(*) AS n FROM customers WHERE country = 'FR'";
const unanswerable = "what is the weather?";

function nlqOf(call: LanguageModelV3CallOptions): { step: string; question: string } {
  return call.providerOptions?.nlq as { step: string; question: string };
}

/** Characters of a call's messages, counted independently of the recording wrapper. */
function characters(call: LanguageModelV3CallOptions): number {
  return call.prompt.reduce(
    (total, message) =>
      total +
      (message.role === "system"
        ? message.content.length
        : message.content.reduce((sum, part) => sum + (part.type === "text" ? part.text.length : 0), 0)),
    0,
  );
}

function answerFor(call: LanguageModelV3CallOptions): string {
  const { step, question } = nlqOf(call);
  const sql = (text: string) => JSON.stringify({ reasoning: "because", sql: question === unanswerable ? "" : text });
  switch (step) {
    case "generate-candidate":
    case "generate-divide-and-conquer":
    case "generate-from-examples":
      return sql(countAll);
    case "generate-query-plan":
      return sql(countFrench);
    case "synthesize-examples":
      return JSON.stringify({ examples: [{ question: "how many customers are French?", sql: countFrench }] });
    case "select-candidate":
      return JSON.stringify({ reasoning: "A counts them all", answer: "A" });
    case "extract-keywords":
      return JSON.stringify({ keywords: ["Camile"] });
    default:
      throw new Error(`no answer for step ${step}`);
  }
}

describe("runPresetBenchmark", () => {
  it("measures calls, characters, candidates, clusters and pairwise calls per preset on the production path", async () => {
    let sent = 0;
    const generatorPrompts: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (call) => {
        sent += characters(call);
        if (nlqOf(call).step === "generate-candidate") generatorPrompts.push(JSON.stringify(call.prompt));
        return {
          content: [{ type: "text", text: answerFor(call) }],
          finishReason: { unified: "stop", raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const results = await runPresetBenchmark({
      url: database.url,
      questions: ["how many customers are there?", unanswerable],
      environment: {},
      resolveModel: () => ({ model, id: "mock:test", scripted: false }),
    });
    expect(results.map((result) => [result.preset, result.selector])).toEqual([
      ["fast", "self-consistency"],
      ["balanced", "self-consistency"],
      ["max", "pairwise"],
    ]);
    const [fast, balanced, max] = results;

    const answered = fast!.questions[0]!;
    expect(answered).toMatchObject({ ok: true, candidates: 1, clusters: 1, selector: "single", failedCalls: 0 });
    // The production path of a database nothing is indexed for: retrieval (extract_keywords, then the live value
    // lookup) before generation, so the misspelt keyword's stored spelling reaches the generator's prompt.
    expect(answered.callsByStep).toEqual({ "extract-keywords": 1, "generate-candidate": 1 });
    expect(generatorPrompts[0]).toContain("customers.name = 'Camille'");
    expect(answered.pairwise).toEqual({ made: 0, allPairs: 0, differingPairs: 0 });
    const failed = fast!.questions[1]!;
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/^22023: /);
    expect(failed.callsByStep).toEqual({ "extract-keywords": 1, "generate-candidate": 1 });

    expect(balanced!.questions[0]).toMatchObject({ candidates: 3, clusters: 2, selector: "self-consistency" });
    expect(balanced!.questions[0]!.pairwise).toEqual({ made: 2, allPairs: 6, differingPairs: 4 });

    // max: one-shot + 3 × divide-and-conquer, query plan, synthetic examples; the 3 query-plan samples disagree.
    const maximum = max!.questions[0]!;
    expect(maximum).toMatchObject({ candidates: 10, clusters: 2, selector: "pairwise" });
    expect(maximum.callsByStep).toEqual({
      "extract-keywords": 1,
      // The reading step's call (balanced and max, the schema showing no phrase in doubt), failed by this mock too.
      "find-readings": 1,
      "generate-candidate": 1,
      "generate-divide-and-conquer": 3,
      "generate-query-plan": 3,
      "synthesize-examples": 3,
      "generate-from-examples": 3,
      "select-candidate": 2,
      // The plain-language sentence (balanced and max): the call is made and measured even though this mock fails it.
      "summarize-answer": 1,
    });
    expect(maximum.pairwise).toEqual({ made: 2, allPairs: 90, differingPairs: 42 });

    // The wrapper saw exactly what the model was sent.
    const recorded = results
      .flatMap((result) => result.questions)
      .reduce((total, question) => total + Object.values(question.charactersByStep).reduce((a, b) => a + b, 0), 0);
    expect(recorded).toBe(sent);
    expect(sent).toBeGreaterThan(0);

    const figures = summarizePresets(results);
    expect(figures.map((preset) => [preset.answered, preset.questions])).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(figures[2]).toMatchObject({ selectorCalls: 2, pairwiseMade: 2, pairwiseAllPairs: 90, pairwiseSaved: 88 });
    expect(figures[2]!.steps["select-candidate"]!.callsTotal).toBe(2);
    const markdown = formatPresetResults(figures, "nlq bench presets --url test");
    expect(markdown).toContain("## Presets (issue 8)");
    expect(markdown).toContain(
      "| pairwise calls over clusters vs. all pairs of candidates (saved) | 0 vs. 0 (0) | 2 vs. 6 (4) | 2 vs. 90 (88) |",
    );
    expect(markdown).toContain("**approximations**");
    expect(markdown).not.toContain("scripted replay");
  }, 60_000);
});
