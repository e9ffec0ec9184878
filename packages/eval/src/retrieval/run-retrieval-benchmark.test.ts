import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createCatalogEmbeddingModel, createOfflineEmbeddingModel } from "@nlq/engine";
import { cosineOnlyLearnedModel } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { BenchmarkDataError, readRetrievalCorpus, readRetrievalQuestions } from "./retrieval-benchmark-data";
import { runRetrievalBenchmark } from "./run-retrieval-benchmark";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "fixtures");

describe("retrieval benchmark on the fixture", () => {
  it("reads corpus and questions (evidence 'False' means none)", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    expect(corpus).toHaveLength(12);
    expect(corpus[0]).toEqual({ database: "shop", table: "customers", column: "customer_id" });
    const questions = await readRetrievalQuestions(join(fixtures, "shop.questions.jsonl"));
    expect(questions.map((question) => question.id)).toEqual(["q1", "q2", "q3"]);
    expect(questions[0]!.evidence).toBe("");
    expect(questions[1]!.hallucinated).toEqual(["Customers(customer_id, name)", "Orders(customer_id, total_amount)"]);
  });

  it("rejects missing and malformed files with BenchmarkDataError", async () => {
    await expect(readRetrievalCorpus(join(fixtures, "absent.jsonl"))).rejects.toBeInstanceOf(BenchmarkDataError);
    await expect(readRetrievalQuestions(join(fixtures, "shop.corpus.jsonl"))).rejects.toThrow(/gold/);
  });

  it("measures the learnt model's question-only ranking (question+learned) with the model given", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    const questions = (await readRetrievalQuestions(join(fixtures, "shop.questions.jsonl"))).slice(0, 1);
    const learnedModel = cosineOnlyLearnedModel({ "c:customer|name": 5, "c:country|country": 5 });
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createCatalogEmbeddingModel(corpus),
      modes: ["question", "question+learned"],
      budgets: [2],
      learnedModel,
    });
    expect(result.recall.question?.["2"]).toBe(0.5);
    expect(result.recall["question+learned"]?.["2"]).toBe(1);
    expect(result.learnedMedianMilliseconds).toBeGreaterThanOrEqual(0);
  });

  it("measures recall per mode and budget", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    const questions = await readRetrievalQuestions(join(fixtures, "shop.questions.jsonl"));
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createCatalogEmbeddingModel(corpus),
      modes: ["question", "crush", "question+evidence", "crush+evidence"],
      budgets: [2, 4, 12],
    });
    expect(result.questions).toBe(3);
    expect(Object.keys(result.recall)).toEqual(["question", "crush", "question+evidence", "crush+evidence"]);
    for (const recall of Object.values(result.recall)) {
      expect(Object.keys(recall!)).toEqual(["2", "4", "12"]);
      expect(recall!["12"]).toBe(1);
      expect(recall!["2"]).toBeLessThanOrEqual(recall!["4"]!);
    }
    // q1's two gold columns are the top two for its hallucinated probe; CRUSH covers every probe of q2 and q3 by k=4.
    expect(result.recall.crush!["4"]).toBe(1);
  });

  it("without modes runs only the question baselines", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    const questions = await readRetrievalQuestions(join(fixtures, "shop.questions.jsonl"));
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createOfflineEmbeddingModel({ dimensions: 256 }),
      budgets: [3],
    });
    expect(Object.keys(result.recall)).toEqual(["question", "question+evidence"]);
  });
});

const dataDirectory = resolve(process.env.NLQ_SHARED_DATA ?? join(here, "../../../../../shared/data"), "retrieval");
const hasData = existsSync(join(dataDirectory, "birdunion.tune.jsonl"));
if (!hasData) console.warn(`skipping real-data retrieval benchmark: ${dataDirectory} is absent (set NLQ_SHARED_DATA)`);

describe.skipIf(!hasData)("retrieval benchmark on the CRUSH4SQL data", () => {
  it("BirdUnion reaches the published recall: dense r@10 0.56, CRUSH r@10 0.71 and r@20 0.82", async () => {
    const corpus = await readRetrievalCorpus(join(dataDirectory, "birdunion.corpus.jsonl"));
    const questions = await readRetrievalQuestions(join(dataDirectory, "birdunion.tune.jsonl"));
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createCatalogEmbeddingModel(corpus),
      modes: ["question", "crush"],
      budgets: [10, 20],
    });
    expect(result.questions).toBe(767);
    expect(result.recall.question!["10"]).toBeGreaterThanOrEqual(0.56);
    expect(result.recall.crush!["10"]).toBeGreaterThanOrEqual(0.71);
    expect(result.recall.crush!["20"]).toBeGreaterThanOrEqual(0.82);
  });

  it("SpiderUnion's 4,503-column corpus loads and runs", async () => {
    const corpus = await readRetrievalCorpus(join(dataDirectory, "spiderunion.corpus.jsonl"));
    expect(corpus).toHaveLength(4503);
    const questions = await readRetrievalQuestions(join(fixtures, "spider.questions.jsonl"));
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createCatalogEmbeddingModel(corpus),
      modes: ["question", "crush"],
      budgets: [10, 20],
    });
    expect(result.recall.crush!["20"]).toBeGreaterThanOrEqual(0.5);
  });
});
