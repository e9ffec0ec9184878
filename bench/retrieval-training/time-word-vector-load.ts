/**
 * Start-up cost of the trained offline embedder in a fresh process: the time and resident memory from nothing to the
 * first embedding (reading the word-vector cache, or building it when it is missing), as any nlq process pays it once.
 *
 *   npx tsx bench/retrieval-training/time-word-vector-load.ts [--cache-dir <dir>]
 */
import { parseArgs } from "node:util";
import { resolvePipelineEmbeddingModel } from "@nlq/adapters";
import { loadSettings } from "@nlq/engine";

const { values } = parseArgs({ options: { "cache-dir": { type: "string" } } });
const settings = loadSettings(values["cache-dir"] ? { NLQ_EMBEDDING_CACHE_DIR: values["cache-dir"] } : {});
const residentBefore = process.memoryUsage().rss;
const started = performance.now();
const model = resolvePipelineEmbeddingModel(settings);
await model.doEmbed({ values: ["How many singers are there?"] });
console.log(
  JSON.stringify({
    model: `${model.provider}:${model.modelId}`,
    firstEmbeddingMilliseconds: Math.round(performance.now() - started),
    residentMegabytesAdded: Math.round((process.memoryUsage().rss - residentBefore) / 1e6),
  }),
);
