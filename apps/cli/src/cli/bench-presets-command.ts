import path from "node:path";
import { loadServiceSettings } from "@nlq/adapters";
import type { PresetQuestionMeasurement } from "@nlq/eval";
import type { Command } from "commander";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { benchPresetsOptionsSchema, parseCommandOptions } from "./command-options";
import { describeCommandError } from "./command-output";

// The benchmark harness lives in @nlq/eval and is loaded only when this command runs.
const DEFAULT_FIXTURE = path.resolve(import.meta.dirname, "../../../../fixtures/demo-model.json");

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), path.resolve(file));
  return relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(file) : relative;
}

/**
 * `nlq bench presets`: LLM calls, prompt tokens, candidates, clusters and selector calls per preset — on the demo with
 * its fixture, or (`--questions train_queries.csv`) on the indexed Spider warehouse with a model scripted from gold.
 */
export function registerBenchPresetsCommand(bench: Command): void {
  bench
    .command("presets")
    .description(
      "LLM calls, prompt tokens (≈ chars/4), candidates, distinct results and selector calls per question for each preset, on the demo database",
    )
    .option("--url <url>", "the demo database (nlq demo load), default NLQ_DEMO_URL or DATABASE_URL")
    .option("--fixture <file>", "scripted fixture whose questions are asked (and replayed)", DEFAULT_FIXTURE)
    .option("--model <provider:model>", "model of every step (default scripted:<fixture>)")
    .option("--presets <names>", "comma list of presets (built-in names or preset .json files)", "fast,balanced,max")
    .option(
      "--questions <file>",
      "Spider's train_queries.csv: ask every n-th question on the indexed warehouse (--url, NLQ_HOME) with a model scripted from gold",
    )
    .option("--count <n>", "with --questions: how many questions (every n-th of the file)", "50")
    .option(
      "--simulated-latency-ms <ms>",
      "every model call waits this long before its (scripted) answer, so wall time shows what the sequential model rounds cost",
      "0",
    )
    .option("--json", "print the figures as JSON")
    .addHelpText(
      "after",
      `
Prerequisite: the demo data loaded, e.g.
  createdb nlq_demo && nlq demo load --url postgresql://postgres@127.0.0.1:5432/nlq_demo
With --questions: the Spider warehouse loaded and indexed (bench/spider-warehouse/README.md), e.g.
  NLQ_HOME=/tmp/wh nlq index --url postgresql://postgres@127.0.0.1:5432/spider_warehouse
  NLQ_HOME=/tmp/wh nlq bench presets --url postgresql://postgres@127.0.0.1:5432/spider_warehouse \\
    --questions ../shared/data/spider-warehouse/train_queries.csv --count 50
Each question runs with search_path set to its database's schema, on the indexed path (CRUSH on balanced and max).
The model is scripted from each question's gold (not a language model): calls are a floor, accuracy means nothing.`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      // Inputs are checked before any work: nothing connects and no fixture is read for a bad one.
      let options: ReturnType<typeof benchPresetsOptionsSchema.parse>;
      let url: string;
      try {
        options = parseCommandOptions(benchPresetsOptionsSchema, givenOptions);
        const service = loadServiceSettings(process.env);
        const givenUrl = options.url ?? service.demoUrl ?? service.databaseUrl;
        if (givenUrl === undefined)
          throw new UsageError("no database: pass --url postgresql://… (the demo database) or set NLQ_DEMO_URL");
        const source =
          options.url !== undefined ? "--url" : service.demoUrl !== undefined ? "NLQ_DEMO_URL" : "DATABASE_URL";
        url = checkDatabaseUrl(givenUrl, source);
      } catch (error) {
        process.stderr.write(`nlq bench presets: ${describeCommandError(error)}\n`);
        process.exitCode = UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1;
        return;
      }
      const evaluation = await import("@nlq/eval");
      const presets = options.presets;
      const onQuestion = (total: number) => (preset: string, measurement: PresetQuestionMeasurement, index: number) => {
        const status = measurement.ok ? "answered" : `failed (${measurement.error})`;
        const crush = measurement.crush
          ? measurement.crush.fallbackReason === undefined
            ? `; crush: ${measurement.crush.columns} columns kept`
            : `; crush fell back: ${measurement.crush.fallbackReason}`
          : "";
        process.stderr.write(`… ${preset} ${index + 1}/${total}: ${status}${crush}\n`);
      };
      let results: Awaited<ReturnType<typeof evaluation.runPresetBenchmark>>;
      let setting = evaluation.demoSetting;
      if (options.questions !== undefined) {
        const count = options.count;
        const { openMetadataStore } = await import("@nlq/adapters");
        const metadataStore = await openMetadataStore({ settings: loadServiceSettings(process.env) });
        try {
          const warehouse = await evaluation.prepareWarehousePresetQuestions({
            url,
            metadataStore,
            questionsFile: options.questions,
            count,
          });
          process.stderr.write(
            `… ${warehouse.questions.length} questions of ${warehouse.fileQuestions} (${warehouse.untranslated} whose gold did not translate left out, ${warehouse.goldDoesNotRun} n-th ones whose gold did not run passed over for the next); model scripted from gold\n`,
          );
          results = await evaluation.runPresetBenchmark({
            url,
            questions: warehouse.questions,
            presets,
            metadataStore,
            environment: {},
            resolveModel: () => warehouse.model,
            simulatedLatencyMilliseconds: options.simulatedLatencyMs,
            onQuestion: onQuestion(warehouse.questions.length),
          });
        } finally {
          await metadataStore.close();
        }
        setting = evaluation.warehouseSetting;
      } else {
        const questions = evaluation.readFixtureQuestions(options.fixture);
        results = await evaluation.runPresetBenchmark({
          url,
          questions,
          presets,
          // The fixture relative to the current directory when it lies below it (shorter in the report).
          environment: { NLQ_MODEL: options.model ?? `scripted:${displayPath(options.fixture)}` },
          simulatedLatencyMilliseconds: options.simulatedLatencyMs,
          onQuestion: onQuestion(questions.length),
        });
      }
      const figures = evaluation.summarizePresets(results);
      if (options.json) {
        const model =
          setting.modelNote ??
          (figures.every((preset) => preset.scripted)
            ? "scripted replay of recorded answers, not a language model"
            : "as configured");
        process.stdout.write(
          `${JSON.stringify({ model, tokens: "approximate: characters / 4", presets: figures }, null, 2)}\n`,
        );
        return;
      }
      const command = `nlq bench presets ${process.argv.slice(4).join(" ")}`.trim();
      process.stdout.write(evaluation.formatPresetResults(figures, command, setting));
    });
}
