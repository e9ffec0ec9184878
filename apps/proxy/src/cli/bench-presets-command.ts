import path from "node:path";
import { loadServiceSettings } from "@nlq/engine";
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

/** `nlq bench presets`: LLM calls, prompt tokens, candidates, clusters and selector calls per preset on the demo. */
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
    .option("--json", "print the figures as JSON")
    .addHelpText(
      "after",
      `
Prerequisite: the demo data loaded, e.g.
  createdb nlq_demo && nlq demo load --url postgresql://postgres@127.0.0.1:5432/nlq_demo`,
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
        process.exitCode = error instanceof UsageError ? USAGE_EXIT_CODE : 1;
        return;
      }
      const { formatPresetResults, readFixtureQuestions, runPresetBenchmark, summarizePresets } = await import(
        "@nlq/eval"
      );
      const questions = readFixtureQuestions(options.fixture);
      const presets = options.presets;
      const results = await runPresetBenchmark({
        url,
        questions,
        presets,
        // The fixture relative to the current directory when it lies below it (shorter in the report).
        environment: { NLQ_MODEL: options.model ?? `scripted:${displayPath(options.fixture)}` },
        onQuestion: (preset, measurement, index) => {
          const status = measurement.ok ? "answered" : `failed (${measurement.error})`;
          process.stderr.write(`… ${preset} ${index + 1}/${questions.length}: ${status}\n`);
        },
      });
      const figures = summarizePresets(results);
      if (options.json) {
        const model = figures.every((preset) => preset.scripted)
          ? "scripted replay of recorded answers, not a language model"
          : "as configured";
        process.stdout.write(
          `${JSON.stringify({ model, tokens: "approximate: characters / 4", presets: figures }, null, 2)}\n`,
        );
        return;
      }
      const command = `nlq bench presets ${process.argv.slice(4).join(" ")}`.trim();
      process.stdout.write(formatPresetResults(figures, command));
    });
}
