/**
 * Chooses the trained offline embedder's lexical share and CRUSH's settings on a tuning file (BirdUnion's tuning half,
 * `../shared/data/retrieval/birdunion.tune.jsonl`, with its recorded hallucinations; never a held-out file): recall of
 * question-only retrieval and of CRUSH for each embedder × probe × CRUSH-settings combination, one JSON line each.
 *
 *   npx tsx bench/retrieval-training/tune-embedder-crush.ts [--corpus <file>] [--questions <file>]
 *     [--shares 0,0.2,0.3,0.5] [--budgets 3,5,10,20,30,50,100]
 *
 * Embedders: the lexical `hashed-ngrams-v1` with the corpus's IDF weights (what `nlq bench retrieval` used before),
 * and the word-vector embedder at each lexical share. Probes: the paper's joint "x t.c" text and the lexical
 * embedder's mix (question weight 0.45). Settings: the paper's (τ 1, |C| 100, no database edge) and the lexical
 * embedder's tuned ones (τ 0.1, |C| 200, 60 per probe, database edge 0.01).
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadOfflineWordVectors, locateWordVectorPackage, wordVectorSource } from "@nlq/adapters";
import {
  type CrushProbe,
  type CrushSelectionOptions,
  createCatalogEmbeddingModel,
  createWordVectorEmbeddingModel,
  defaultProbeQuestionWeight,
  paperCrushSettings,
  schemaColumnText,
  termWeightsFromTexts,
} from "@nlq/engine";
import { readRetrievalCorpus, readRetrievalQuestions, runRetrievalBenchmark } from "@nlq/eval";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const data = resolve(repositoryRoot, "../shared/data/retrieval");
const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: `${data}/birdunion.corpus.jsonl` },
    questions: { type: "string", default: `${data}/birdunion.tune.jsonl` },
    shares: { type: "string", default: "0,0.2,0.3,0.5" },
    budgets: { type: "string", default: "3,5,10,20,30,50,100" },
    probes: { type: "string", default: "joint,mix" },
    settings: { type: "string", default: "paper,lexical-tuned" },
    weighting: { type: "string", default: "none,idf,sif,idf+sif" },
    "skip-lexical": { type: "boolean", default: false },
  },
});
const corpus = await readRetrievalCorpus(values.corpus);
const questions = await readRetrievalQuestions(values.questions);
const budgets = values.budgets.split(",").map(Number);
const location = locateWordVectorPackage();
if (!location) throw new Error(`${wordVectorSource} is not installed`);
const vectors = await loadOfflineWordVectors({ location });

const settingsByName: Record<string, CrushSelectionOptions> = {
  paper: paperCrushSettings,
  "lexical-tuned": {
    ...paperCrushSettings,
    coverageTemperature: 0.1,
    candidateLimit: 200,
    neighboursPerProbe: 60,
    databaseEdgeScore: 0.01,
  },
  "paper+database-edge": { ...paperCrushSettings, databaseEdgeScore: 0.01 },
  "paper+pool-200": { ...paperCrushSettings, candidateLimit: 200 },
  "paper+tau-0.1": { ...paperCrushSettings, coverageTemperature: 0.1 },
};
const idf = termWeightsFromTexts(corpus.map((column) => schemaColumnText(column, { includeDatabase: true })));
const embedders = [
  ...(!values["skip-lexical"] ? [{ name: "hashed-ngrams-v1+idf", model: createCatalogEmbeddingModel(corpus) }] : []),
  ...values.shares.split(",").flatMap((share) =>
    values.weighting.split(",").map((weighting) => ({
      name: `word-vectors lexical ${share} ${weighting}`,
      model: createWordVectorEmbeddingModel({
        source: wordVectorSource,
        lexicalShare: Number(share),
        loadVectors: async () => vectors,
        ...(weighting.includes("idf") ? { termWeights: idf } : {}),
        ...(weighting.includes("sif") ? { frequencyWeight: 0.001 } : {}),
      }),
    })),
  ),
];
const probes: Record<string, CrushProbe> = { joint: "joint", mix: defaultProbeQuestionWeight };
for (const embedder of embedders) {
  let questionRecall: unknown;
  for (const probeName of values.probes.split(",")) {
    for (const settingsName of values.settings.split(",")) {
      const result = await runRetrievalBenchmark({
        corpus,
        questions,
        embeddingModel: embedder.model,
        modes: questionRecall === undefined ? ["question", "crush"] : ["crush"],
        budgets,
        probe: probes[probeName]!,
        crush: settingsByName[settingsName]!,
      });
      questionRecall ??= result.recall.question;
      console.log(
        JSON.stringify({
          embedder: embedder.name,
          probe: probeName,
          settings: settingsName,
          question: questionRecall,
          crush: result.recall.crush,
        }),
      );
    }
  }
}
