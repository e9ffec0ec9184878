/**
 * Trains the learnt schema-retrieval model from Spider's training questions and BIRD's tuning half, holding out whole
 * databases for validation, and writes the artefact plus the held-out questions files for `nlq bench retrieval`.
 *
 *   npx tsx bench/retrieval-training/train.ts [--data ../shared/data] [--out <model.json>] [--questions-out <dir>]
 *     [--seed 7] [--held-out 0.2] [--epochs 3] [--learning-rate 0.01] [--dense-factor 50] [--l2 0.001] [--minimum-count 5]
 *     [--tuning-share 0] [--training-candidates 150]
 *
 * With `--tuning-share s` > 0, a further share s of the Spider training databases (chosen by seed + 1) is left out of
 * the fit and reported as `spiderTuning`: settings are chosen on it, never on the held-out databases (whose figures
 * are the ones reported), and its questions are written as `spiderunion.tuning.jsonl` beside the held-out files, for
 * `nlq bench retrieval`. The shipped model is trained with the default 0.
 *
 * Spider dev questions are never read; the Spider candidate pool is the training databases' columns only.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { learnedModelToJson } from "@nlq/engine";
import { readRetrievalCorpus } from "@nlq/eval";
import { fitLearnedModel } from "./fit-learned-model";
import {
  heldOutDatabases,
  type LabelledQuestion,
  readBirdTuningQuestions,
  readSpiderTrainingQuestions,
} from "./training-data";
import { validationRecall } from "./validation-recall";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Version written into the artefact; bump it (and the file name) when features or training change. */
export const modelVersion = "retrieval-model-v3";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(repositoryRoot, "../shared/data") },
    out: {
      type: "string",
      default: resolve(repositoryRoot, `packages/engine/src/retrieval/learned/${modelVersion}.json`),
    },
    "questions-out": { type: "string", default: "/tmp/nlq-retrieval" },
    seed: { type: "string", default: "7" },
    "held-out": { type: "string", default: "0.2" },
    epochs: { type: "string", default: "3" },
    "learning-rate": { type: "string", default: "0.01" },
    l2: { type: "string", default: "0.001" },
    "dense-factor": { type: "string", default: "50" },
    "minimum-count": { type: "string", default: "5" },
    "tuning-share": { type: "string", default: "0" },
    "training-candidates": { type: "string", default: "150" },
  },
});
const seed = Number(values.seed);
const share = Number(values["held-out"]);
const started = performance.now();

const spiderCorpus = await readRetrievalCorpus(`${values.data}/retrieval/spiderunion.corpus.jsonl`);
const spiderQuestions = await readSpiderTrainingQuestions(
  `${values.data}/spider-warehouse/train_queries.csv`,
  spiderCorpus,
);
const spiderHeldOut = heldOutDatabases(
  spiderQuestions.map((question) => question.database),
  share,
  seed,
);
const spiderTrainingDatabases = new Set(spiderQuestions.map((question) => question.database));
const birdCorpus = await readRetrievalCorpus(`${values.data}/retrieval/birdunion.corpus.jsonl`);
const birdQuestions = await readBirdTuningQuestions(`${values.data}/retrieval/birdunion.tune.jsonl`);
const birdHeldOut = heldOutDatabases(
  birdQuestions.map((question) => question.database),
  share,
  seed,
);

const split = (questions: LabelledQuestion[], heldOut: Set<string>) => ({
  training: questions.filter((question) => !heldOut.has(question.database)),
  validation: questions.filter((question) => heldOut.has(question.database)),
});
const spiderSplit = split(spiderQuestions, spiderHeldOut);
const tuningDatabases =
  Number(values["tuning-share"]) > 0
    ? heldOutDatabases(
        spiderSplit.training.map((question) => question.database),
        Number(values["tuning-share"]),
        seed + 1,
      )
    : new Set<string>();
const spiderTuning = spiderSplit.training.filter((question) => tuningDatabases.has(question.database));
const spider = {
  training: spiderSplit.training.filter((question) => !tuningDatabases.has(question.database)),
  validation: spiderSplit.validation,
};
const bird = split(birdQuestions, birdHeldOut);
const model = fitLearnedModel(
  [
    {
      columns: spiderCorpus.filter(
        (column) =>
          spiderTrainingDatabases.has(column.database ?? "") &&
          !spiderHeldOut.has(column.database ?? "") &&
          !tuningDatabases.has(column.database ?? ""),
      ),
      questions: spider.training,
    },
    { columns: birdCorpus.filter((column) => !birdHeldOut.has(column.database ?? "")), questions: bird.training },
  ],
  {
    version: modelVersion,
    seed,
    epochs: Number(values.epochs),
    learningRate: Number(values["learning-rate"]),
    l2: Number(values.l2),
    denseLearningRateFactor: Number(values["dense-factor"]),
    minimumCount: Number(values["minimum-count"]),
    trainingCandidates: Number(values["training-candidates"]),
    training: {
      spiderTrainingQuestions: spider.training.length,
      birdTrainingQuestions: bird.training.length,
      heldOutShare: share,
      spiderHeldOutDatabases: [...spiderHeldOut].sort(),
      birdHeldOutDatabases: [...birdHeldOut].sort(),
      sources: "spider-warehouse/train_queries.csv, retrieval/birdunion.tune.jsonl",
    },
  },
);
await mkdir(dirname(values.out), { recursive: true });
await writeFile(values.out, `${JSON.stringify(learnedModelToJson(model))}\n`);

await mkdir(values["questions-out"], { recursive: true });
const writeQuestions = (name: string, questions: LabelledQuestion[]) =>
  writeFile(
    `${values["questions-out"]}/${name}`,
    questions
      .map((question) =>
        JSON.stringify({
          id: question.id,
          question: question.question,
          gold: question.gold,
          hallucinated: question.hallucinated,
        }),
      )
      .join("\n")
      .concat("\n"),
  );
await writeQuestions("spiderunion.heldout.jsonl", spider.validation);
await writeQuestions("birdunion.heldout.jsonl", bird.validation);
if (spiderTuning.length > 0) await writeQuestions("spiderunion.tuning.jsonl", spiderTuning);

const report = {
  seconds: Math.round((performance.now() - started) / 100) / 10,
  sparseWeights: model.sparse.size,
  dense: model.dense,
  spider: { training: spider.training.length, validation: spider.validation.length, heldOut: spiderHeldOut.size },
  bird: { training: bird.training.length, validation: bird.validation.length, heldOut: [...birdHeldOut] },
  ...(spiderTuning.length > 0
    ? {
        spiderTuning: {
          questions: spiderTuning.length,
          databases: tuningDatabases.size,
          ...validationRecall(spiderCorpus, spiderTuning, model),
        },
      }
    : {}),
  spiderValidation: validationRecall(spiderCorpus, spider.validation, model),
  birdValidation: validationRecall(birdCorpus, bird.validation, model),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
