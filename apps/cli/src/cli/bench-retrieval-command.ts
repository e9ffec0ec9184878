import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePipelineEmbeddingModel } from "@nlq/adapters";
import {
  catalogEmbeddingModel,
  defaultLearnedRetrievalModel,
  loadSettings,
  readLearnedRetrievalModel,
  type SchemaColumn,
} from "@nlq/engine";
import {
  buildWarehouseValueIndex,
  defaultRetrievalBudgets,
  type RetrievalBenchmarkResult,
  type RetrievalMode,
  readRetrievalCorpus,
  readRetrievalQuestions,
  runRetrievalBenchmark,
} from "@nlq/eval";
import type { Command } from "commander";
import { benchRetrievalOptionsSchema, parseCommandOptions } from "./command-options";
import { refuseInput } from "./command-output";
import { formatTable } from "./format-table";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** Default benchmark directory: `../shared/data/retrieval` beside the checkout. */
export const defaultRetrievalDataDirectory = resolve(repositoryRoot, "../shared/data/retrieval");

/** Recall published in CRUSH4SQL Table 2 (budgets 3, 5, 10, 20, 30, 50, 100). */
export const publishedRetrievalRecall = {
  BirdUnion: {
    "dense (OpenAI)": [0.33, 0.43, 0.56, 0.66, 0.72, 0.8, 0.93],
    CRUSH: [0.39, 0.54, 0.71, 0.82, 0.88, 0.92, 0.97],
  },
  SpiderUnion: {
    "dense (OpenAI)": [0.55, 0.64, 0.77, 0.86, 0.9, 0.93, 0.96],
    CRUSH: [0.59, 0.72, 0.83, 0.9, 0.92, 0.94, 0.97],
  },
} as const;

const publishedBudgets = [3, 5, 10, 20, 30, 50, 100];

/** Which published benchmark a corpus is, by file name or by size (798 and 4,503 columns); undefined if neither. */
export function recogniseRetrievalCorpus(
  corpusPath: string,
  columns: readonly SchemaColumn[],
): keyof typeof publishedRetrievalRecall | undefined {
  const name = basename(corpusPath).toLowerCase();
  if (name.startsWith("birdunion") || columns.length === 798) return "BirdUnion";
  if (name.startsWith("spiderunion") || columns.length === 4503) return "SpiderUnion";
  return undefined;
}

/** The `--json` object: `{"questions": N, "<mode>": {"<budget>": recall, ...}, ...}` with the modes that ran. */
export function retrievalResultJson(result: RetrievalBenchmarkResult): Record<string, unknown> {
  return {
    questions: result.questions,
    ...result.recall,
    ...(result.learnedMedianMilliseconds === undefined
      ? {}
      : { learnedMedianMilliseconds: result.learnedMedianMilliseconds }),
    ...(result.medianMilliseconds === undefined ? {} : { medianMilliseconds: result.medianMilliseconds }),
  };
}

/** Text report: one row per mode, the published rows when the corpus is recognised. */
export function formatRetrievalReport(
  result: RetrievalBenchmarkResult,
  budgets: readonly number[],
  header: string,
  published: keyof typeof publishedRetrievalRecall | undefined,
): string {
  const columns = ["method", ...budgets.map((budget) => `r@${budget}`), "p50 ms"];
  const rows: string[][] = Object.entries(result.recall).map(([mode, recall]) => [
    mode,
    ...budgets.map((budget) => recall?.[String(budget)]?.toFixed(3) ?? ""),
    result.medianMilliseconds?.[mode as RetrievalMode]?.toFixed(2) ?? "",
  ]);
  if (published) {
    for (const [method, values] of Object.entries(publishedRetrievalRecall[published])) {
      rows.push([
        `published ${published}: ${method}`,
        ...budgets.map((budget) => {
          const position = publishedBudgets.indexOf(budget);
          return position === -1 ? "-" : values[position]!.toFixed(2);
        }),
        "",
      ]);
    }
  }
  return `${header}\n${formatTable(columns, rows)}`;
}

/** `nlq bench retrieval`: recall@k of schema retrieval (question-only dense and CRUSH) on CRUSH4SQL-format data. */
export function registerBenchRetrievalCommand(bench: Command): void {
  bench
    .command("retrieval")
    .description(
      "recall@k of schema retrieval: question-only dense baseline and CRUSH (recorded hallucinated schemas), " +
        "with and without evidence, beside CRUSH4SQL's published numbers",
    )
    .option(
      "--corpus <file>",
      "corpus JSONL, one {db,table,column} per line",
      `${defaultRetrievalDataDirectory}/birdunion.corpus.jsonl`,
    )
    .option(
      "--questions <file>",
      "questions JSONL, one {id,question,evidence,gold,hallucinated} per line",
      `${defaultRetrievalDataDirectory}/birdunion.tune.jsonl`,
    )
    .option("--hallucinated", "also run CRUSH over the questions' recorded hallucinated schemas (no model call)", false)
    .option("--no-evidence", "skip the +evidence modes")
    .option("--budgets <list>", "budgets k, comma separated", defaultRetrievalBudgets.join(","))
    .option("--json", "print exactly one JSON object with the figures", false)
    .option("--no-learned", "skip the learnt-model modes (question+learned, crush+learned)")
    .option(
      "--values <warehouse>",
      "also run question+learned+values: index the corpus columns' values from a Spider warehouse directory " +
        "(databases/<db>/schema.sql and data/*.csv, e.g. ../shared/data/spider-warehouse)",
    )
    .option(
      "--structure",
      "also run the structure step (question+learned+structure, with --values +values+structure)",
      false,
    )
    .option("--learned-model <file>", "learnt retrieval model artefact (default: the shipped retrieval-model-v3.json)")
    .addHelpText(
      "after",
      "\nEmbeddings: NLQ_EMBEDDING_MODEL=provider:model (openai:text-embedding-3-small, google:…, ollama:…," +
        " openai-compatible:…); unset or builtin → the trained offline embedder (GloVe word vectors + lexical block) with" +
        " IDF weights from the corpus; builtin:lexical → the lexical hashed-ngrams-v1 alone.",
    )
    .action(async (givenOptions: Record<string, unknown>, command: Command) => {
      let options: ReturnType<typeof benchRetrievalOptionsSchema.parse>;
      try {
        options = parseCommandOptions(benchRetrievalOptionsSchema, givenOptions);
      } catch (error) {
        refuseInput("bench retrieval", error);
        return;
      }
      try {
        const budgets = options.budgets;
        const corpus = await readRetrievalCorpus(options.corpus);
        const questions = await readRetrievalQuestions(options.questions);
        const settings = loadSettings(process.env);
        // The pipeline's embedder, with the corpus's term weights for the built-in ones (as CRUSH's live retriever).
        const embeddingModel = catalogEmbeddingModel(resolvePipelineEmbeddingModel(settings), corpus);
        const modes: RetrievalMode[] = ["question"];
        if (options.hallucinated) modes.push("crush");
        if (options.evidence) modes.push("question+evidence");
        if (options.hallucinated && options.evidence) modes.push("crush+evidence");
        if (options.learned) modes.push("question+learned");
        if (options.learned && options.hallucinated) modes.push("crush+learned");
        if (options.values) modes.push("question+learned+values");
        if (options.structure) modes.push("question+learned+structure");
        if (options.values && options.structure) modes.push("question+learned+values+structure");
        const values = options.values ? await buildWarehouseValueIndex(options.values, corpus) : undefined;
        if (values && !options.json)
          process.stdout.write(`value index: ${values.values} values of ${values.columns} corpus columns\n`);
        const learnedModel = options.learnedModel ? readLearnedRetrievalModel(options.learnedModel) : undefined;
        const started = performance.now();
        const result = await runRetrievalBenchmark({
          corpus,
          questions,
          embeddingModel,
          modes,
          budgets,
          learnedModel,
          ...(values ? { valueIndex: values.index } : {}),
        });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(retrievalResultJson(result))}\n`);
          return;
        }
        const published = recogniseRetrievalCorpus(options.corpus, corpus);
        const header =
          `${published ?? basename(options.corpus)}: ${corpus.length} columns, ${result.questions} questions, ` +
          `embedding ${embeddingModel.provider}:${embeddingModel.modelId}, ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s` +
          (result.learnedMedianMilliseconds === undefined
            ? ""
            : `, learnt ranking p50 ${result.learnedMedianMilliseconds.toFixed(2)} ms/question ` +
              `(${learnedModel?.version ?? defaultLearnedRetrievalModel().version}, offline embedder features)`);
        process.stdout.write(`${formatRetrievalReport(result, budgets, header, published)}\n`);
      } catch (error) {
        command.error(`nlq bench retrieval: ${error instanceof Error ? error.message : String(error)}`, {
          exitCode: 1,
        });
      }
    });
}
