import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GeneratorPlan } from "../config/presets";
import { loadSettings, type Settings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import type { QueryExecutor } from "../database/query-executor";
import { CancelledError } from "../errors/cancelled-error";
import type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "../llm/llm-response-cache";
import { mockTextResult, stepOf } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

// The preset-driven composition on a real PostgreSQL: several generators × samples → fixer → execution clusters →
// selector. Every model is an AI SDK mock (no language model); each step answers from a table of SQL per step.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_presets",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');`,
  );
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

const countAll = "SELECT count(*) AS n FROM customers";
const countFrench = "SELECT count(*) AS n FROM customers WHERE country = 'FR'";

function promptOf(call: LanguageModelV3CallOptions): string {
  return JSON.stringify(call.prompt);
}

/** A mock model answering each step with `answers[step](call)`; records every call's step. */
function scriptedByStep(answers: Record<string, (call: LanguageModelV3CallOptions) => string>) {
  const steps: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (call) => {
      const step = stepOf(call);
      steps.push(step);
      const answer = answers[step];
      if (!answer) throw new Error(`no answer for step ${step}`);
      return mockTextResult(answer(call), { input: 10, output: 5 });
    },
  });
  return { model, steps };
}

const sql = (text: string) => () => JSON.stringify({ reasoning: "because", sql: text });

/**
 * Balanced with these generators; without the plain-language sentence unless `overrides` asks for it (tested below),
 * and without the reading step (its model call and readings are tested in readings/readings-pipeline.test.ts).
 */
function settingsWith(generators: GeneratorPlan[], overrides: Partial<Settings> = {}): Settings {
  return {
    ...loadSettings({ NLQ_PRESET: "balanced" }),
    generators,
    summarizeAnswer: false,
    readings: false,
    ...overrides,
  };
}

const threeGenerators: GeneratorPlan[] = [
  { generator: "one-shot", samples: 1, temperature: 0 },
  { generator: "divide-and-conquer", samples: 1, temperature: 0.5 },
  { generator: "query-plan", samples: 1, temperature: 0.5 },
];

function ask(options: {
  model: MockLanguageModelV3;
  settings: Settings;
  question?: string;
  events?: PipelineEvent[];
  llmCache?: LlmResponseCache;
  abortSignal?: AbortSignal;
  session?: QueryExecutor;
}) {
  return answerQuestion({
    question: options.question ?? "how many customers?",
    session: options.session ?? session,
    settings: options.settings,
    resolveModel: () => ({ model: options.model, id: "mock:model", scripted: false }),
    onEvent: (event) => options.events?.push(event),
    ...(options.llmCache ? { llmCache: options.llmCache } : {}),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
}

describe("answerQuestion with several generators", () => {
  it("clusters the candidates by result and lets the largest cluster win by self-consistency", async () => {
    const { model, steps } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("SELECT count(id) AS n FROM customers"),
      "generate-query-plan": sql(countFrench),
    });
    const events: PipelineEvent[] = [];
    const answer = await ask({ model, settings: settingsWith(threeGenerators), events });
    expect(steps.sort()).toEqual(["generate-candidate", "generate-divide-and-conquer", "generate-query-plan"]);
    expect(answer.result.rows).toEqual([["3"]]);
    expect(answer.sql).toBe(countAll);
    expect(answer.confidence).toBeCloseTo(2 / 3);
    expect(answer.selection).toMatchObject({
      selector: "self-consistency",
      candidates: 3,
      executed: 3,
      clusters: 2,
      chosenCluster: 0,
    });
    expect(answer.candidates.map((candidate) => [candidate.generator, candidate.cluster])).toEqual([
      ["one-shot", 0],
      ["divide-and-conquer", 0],
      ["query-plan", 1],
    ]);
    expect(events).toContainEqual({
      type: "selection-start",
      candidates: 3,
      clusters: 2,
      selector: "self-consistency",
    });
    expect(events.find((event) => event.type === "selection-end")).toMatchObject({
      confidence: 2 / 3,
      candidates: 3,
      clusters: 2,
      selector: "self-consistency",
    });
  });

  it("runs a candidate whose SQL normalises to an earlier one once, and still counts its vote", async () => {
    const { model } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("select   COUNT(*) as n\nfrom customers;"),
      "generate-query-plan": sql(countFrench),
    });
    const statements: string[] = [];
    const counting: QueryExecutor = {
      ...session,
      query: (options) => {
        statements.push(options.sql);
        return session.query(options);
      },
    };
    const answer = await ask({ model, settings: settingsWith(threeGenerators), session: counting });
    const counts = statements.filter((statement) => /count\(\*\)/i.test(statement) && /customers/.test(statement));
    expect(counts).toHaveLength(2);
    expect(answer.candidates[1]).toMatchObject({
      generator: "divide-and-conquer",
      duplicateOf: 0,
      ok: true,
      cluster: 0,
    });
    expect(answer.confidence).toBeCloseTo(2 / 3);
  });

  it("goes on without a candidate that fails, and counts it against the agreement", async () => {
    const { model } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": () => "I would rather not say.",
      "generate-query-plan": sql("SELECT count(id) AS n FROM customers"),
    });
    const answer = await ask({ model, settings: settingsWith(threeGenerators) });
    expect(answer.sql).toBe(countAll);
    expect(answer.candidates[1]).toMatchObject({ generator: "divide-and-conquer", ok: false });
    expect(answer.selection).toMatchObject({ selector: "single", candidates: 3, executed: 2, clusters: 1 });
    expect(answer.confidence).toBeCloseTo(2 / 3);
    expect(answer.selection.basis).toBe("2 of 3 candidates returned this result");
  });

  it("counts a failed candidate against self-consistency's agreement too", async () => {
    const { model } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": () => "no query here",
      "generate-query-plan": sql(countFrench),
    });
    const answer = await ask({ model, settings: settingsWith(threeGenerators) });
    expect(answer.sql).toBe(countAll);
    expect(answer.selection).toMatchObject({ selector: "self-consistency", candidates: 3, executed: 2, clusters: 2 });
    expect(answer.confidence).toBeCloseTo(1 / 3);
    expect(answer.selection.basis).toBe("1 of 3 candidates returned this result (the largest of 2 clusters)");
  });

  it("asks the pairwise selection agent when results differ: its choice beats the majority", async () => {
    const { model, steps } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("SELECT count(id) AS n FROM customers"),
      "generate-query-plan": sql(countFrench),
      // The agent prefers whichever candidate filters on France, in either position.
      "select-candidate": (call) => {
        const prompt = promptOf(call);
        const a = prompt.indexOf("Candidate A");
        const b = prompt.indexOf("Candidate B");
        const french = prompt.indexOf("country = 'FR'");
        const frenchIsA = french > a && (b < a ? true : french < b);
        return JSON.stringify({ reasoning: "filters on France", answer: frenchIsA ? "A" : "B" });
      },
    });
    const answer = await ask({ model, settings: settingsWith(threeGenerators, { selector: "pairwise" }) });
    expect(steps.filter((step) => step === "select-candidate")).toHaveLength(2);
    expect(answer.sql).toBe(countFrench);
    expect(answer.result.rows).toEqual([["2"]]);
    // The agent's win rate (2 of 2) is capped at the share of candidates that returned its result: one figure.
    expect(answer.confidence).toBeCloseTo(1 / 3);
    expect(answer.selection).toMatchObject({ selector: "pairwise", clusters: 2, chosenCluster: 1 });
    expect(answer.selection.basis).toMatch(
      /won 2 of 2 pairwise comparisons.*; at most 1 of 3 candidates \(33%\): the others returned different rows$/,
    );
  });

  it("asks no selector when every candidate agrees", async () => {
    const { model, steps } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("SELECT count(id) AS n FROM customers"),
      "generate-query-plan": sql("SELECT count(name) AS n FROM customers"),
    });
    const answer = await ask({ model, settings: settingsWith(threeGenerators, { selector: "pairwise" }) });
    expect(steps).not.toContain("select-candidate");
    expect(answer.confidence).toBe(1);
    expect(answer.selection).toMatchObject({ selector: "single", clusters: 1 });
  });

  it("falls back to self-consistency when the selector fails, and says so", async () => {
    const { model } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("SELECT count(id) AS n FROM customers"),
      "generate-query-plan": sql(countFrench),
    });
    const answer = await ask({ model, settings: settingsWith(threeGenerators, { selector: "pairwise" }) });
    expect(answer.sql).toBe(countAll);
    expect(answer.selection.selector).toBe("self-consistency");
    expect(answer.selection.basis).toMatch(/^pairwise failed \(.*\); 2 of 3 candidates/);
  });

  it("writes every sample of a generator with its own sample index and temperature", async () => {
    const seen: Array<{ step: string; sample: number; temperature: number | undefined }> = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (call) => {
        const nlq = call.providerOptions?.nlq as { step: string; sample: number };
        seen.push({ step: nlq.step, sample: nlq.sample, temperature: call.temperature });
        return mockTextResult(JSON.stringify({ reasoning: "r", sql: countAll }));
      },
    });
    const answer = await ask({
      model,
      settings: settingsWith([{ generator: "query-plan", samples: 3, temperature: 0.7 }]),
    });
    expect(seen.map((call) => [call.step, call.sample, call.temperature])).toEqual([
      ["generate-query-plan", 0, 0.7],
      ["generate-query-plan", 1, 0.7],
      ["generate-query-plan", 2, 0.7],
    ]);
    expect(answer.candidates.map((candidate) => candidate.sample)).toEqual([0, 1, 2]);
  });

  it("runs model calls concurrently up to the preset's limit, and SQL one statement at a time", async () => {
    let running = 0;
    let most = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (call) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running -= 1;
        const sample = (call.providerOptions?.nlq as { sample?: number } | undefined)?.sample ?? 0;
        return mockTextResult(
          JSON.stringify({ reasoning: "r", sql: `SELECT ${sample} + count(*) AS n FROM customers` }),
        );
      },
    });
    let statementsRunning = 0;
    let overlapped = false;
    const watching: QueryExecutor = {
      ...session,
      query: async (options) => {
        statementsRunning += 1;
        if (statementsRunning > 1) overlapped = true;
        try {
          return await session.query(options);
        } finally {
          statementsRunning -= 1;
        }
      },
    };
    const answer = await ask({
      model,
      session: watching,
      settings: settingsWith([{ generator: "one-shot", samples: 5, temperature: 0.5 }], { concurrency: 2 }),
    });
    expect(most).toBe(2);
    expect(overlapped).toBe(false);
    expect(answer.selection.clusters).toBe(5);
  });

  it("consults the response cache: a second identical question calls no model", async () => {
    const entries = new Map<string, CachedLlmResponse>();
    const keyOf = (key: LlmCallKey) => JSON.stringify(key);
    const cache: LlmResponseCache = {
      get: async (key) => entries.get(keyOf(key)),
      put: async (key, value) => void entries.set(keyOf(key), value),
    };
    const { model, steps } = scriptedByStep({
      "generate-candidate": sql(countAll),
      "generate-divide-and-conquer": sql("SELECT count(id) AS n FROM customers"),
      "generate-query-plan": sql(countFrench),
    });
    const settings = settingsWith(threeGenerators);
    const first = await ask({ model, settings, llmCache: cache });
    expect(steps).toHaveLength(3);
    expect(entries.size).toBe(3);
    const second = await ask({ model, settings, llmCache: cache });
    expect(steps).toHaveLength(3);
    expect(second.sql).toBe(first.sql);
    expect(second.calls.every((call) => call.cached === true)).toBe(true);
    expect(second.calls.map((call) => call.inputTokens)).toEqual([10, 10, 10]);
  });

  it("validates a cached response like a fresh one: a tampered cache entry's SQL is refused, never run", async () => {
    const entries = new Map<string, CachedLlmResponse>();
    const keyOf = (key: LlmCallKey) => JSON.stringify(key);
    const cache: LlmResponseCache = {
      get: async (key) => entries.get(keyOf(key)),
      put: async (key, value) => void entries.set(keyOf(key), value),
    };
    const oneGenerator: GeneratorPlan[] = [{ generator: "one-shot", samples: 1, temperature: 0 }];
    const { model } = scriptedByStep({ "generate-candidate": sql(countAll) });
    const settings = settingsWith(oneGenerator, { maxFixAttempts: 0 });
    await ask({ model, settings, llmCache: cache });
    // Someone who can write the cache plants SQL that writes, and SQL that runs a function nlq refuses.
    for (const planted of [
      "DELETE FROM customers",
      "SELECT pg_catalog.pg_terminate_backend(pg_catalog.pg_backend_pid())",
    ]) {
      for (const [key, value] of entries) entries.set(key, { ...value, output: { reasoning: "x", sql: planted } });
      const answer = await ask({ model, settings, llmCache: cache }).catch((error: unknown) => error);
      // Refused by the same validation a fresh answer goes through (the model is never asked: the entry is a hit).
      expect(answer).toBeInstanceOf(Error);
      expect((answer as Error).name).toMatch(/Validation|Policy|Refused/);
      expect((await client.query("SELECT count(*)::int AS n FROM customers")).rows).toEqual([{ n: 3 }]);
    }
  });

  it("aborts every outstanding model call when the question is cancelled", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: (call) => {
        if (call.abortSignal) signals.push(call.abortSignal);
        if (signals.length === 2) controller.abort();
        return new Promise((_, reject) => {
          if (call.abortSignal?.aborted) reject(call.abortSignal.reason);
          call.abortSignal?.addEventListener("abort", () => reject(call.abortSignal?.reason), { once: true });
        });
      },
    });
    await expect(
      ask({
        model,
        abortSignal: controller.signal,
        settings: settingsWith([{ generator: "one-shot", samples: 4, temperature: 0.5 }], { concurrency: 2 }),
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});

describe("answerQuestion's plain-language sentence (summarize-answer)", () => {
  const generators = {
    "generate-candidate": sql(countAll),
    "generate-divide-and-conquer": sql(countAll),
    "generate-query-plan": sql(countFrench),
  };

  it("asks for the sentence after selection with the chosen SQL and its rows, and returns it with the answer", async () => {
    const prompts: string[] = [];
    const { model, steps } = scriptedByStep({
      ...generators,
      "summarize-answer": (call) => {
        prompts.push(promptOf(call));
        return JSON.stringify({ answer: "There are 3 customers." });
      },
    });
    const events: PipelineEvent[] = [];
    const answer = await ask({ model, settings: settingsWith(threeGenerators, { summarizeAnswer: true }), events });
    expect(answer.summary).toEqual({ sentence: "There are 3 customers.", model: "mock:model", scripted: false });
    expect(steps.at(-1)).toBe("summarize-answer");
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(countAll);
    expect(prompts[0]).not.toContain(countFrench);
    const order = events.map((event) => event.type).filter((type) => !type.startsWith("llm-call"));
    expect(order.slice(-4)).toEqual(["selection-end", "summary-start", "summary-end", "pipeline-end"]);
    expect(answer.calls.map((call) => call.step)).toContain("summarize-answer");
  });

  it("still returns the answer, without a sentence, when the summarize-answer call fails", async () => {
    const { model, steps } = scriptedByStep(generators);
    const events: PipelineEvent[] = [];
    const answer = await ask({ model, settings: settingsWith(threeGenerators, { summarizeAnswer: true }), events });
    expect(steps).toContain("summarize-answer");
    expect(answer.sql).toBe(countAll);
    expect(answer.result.rows).toEqual([["3"]]);
    expect(answer).not.toHaveProperty("summary");
    expect(events.find((event) => event.type === "summary-end")).toMatchObject({
      omittedReason: expect.stringContaining("no answer for step summarize-answer"),
    });
  });

  it("skips the call when the generators spent the question's call budget", async () => {
    const { model, steps } = scriptedByStep({
      ...generators,
      "summarize-answer": () => JSON.stringify({ answer: "There are 3 customers." }),
    });
    const answer = await ask({
      model,
      settings: settingsWith(threeGenerators, { summarizeAnswer: true, maxLlmCalls: 3 }),
    });
    expect(steps).not.toContain("summarize-answer");
    expect(answer.sql).toBe(countAll);
    expect(answer).not.toHaveProperty("summary");
  });
});
