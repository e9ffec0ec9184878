import { createCatalogEmbeddingModel } from "@nlq/engine";
import { buildWarehouseValueIndex, readRetrievalCorpus, readRetrievalQuestions, runRetrievalBenchmark } from "@nlq/eval";
const corpus = await readRetrievalCorpus("../shared/data/retrieval/spiderunion.corpus.jsonl");
const questions = await readRetrievalQuestions(process.argv[2]!);
const { index } = await buildWarehouseValueIndex("../shared/data/spider-warehouse", corpus);
for (const [weight, minSimilarity] of JSON.parse(process.argv[3]!) as [number, number][]) {
  const result = await runRetrievalBenchmark({ corpus, questions, embeddingModel: createCatalogEmbeddingModel(corpus),
    modes: ["question+learned+values"], budgets: [3, 5, 10, 20, 50, 100], valueIndex: index, valueFusion: { weight, minSimilarity } });
  console.log(weight, minSimilarity, Object.values(result.recall["question+learned+values"]!).map((v) => v.toFixed(3)).join(" "));
}
