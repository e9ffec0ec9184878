import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { benchPromptSizeOptionsSchema, parseCommandOptions } from "./command-options";
import { refuseInput } from "./command-output";

// The benchmark harness lives in @nlq/eval and is loaded only when this command runs.
const DEFAULT_PROMPT_SIZE_RESULTS_FILE = path.resolve(
  import.meta.dirname,
  "../../../../packages/eval/src/prompt-size/RESULTS.md",
);

/** `nlq bench prompt-size`: generation prompt tokens, whole Spider warehouse vs after schema selection; retrieval latency. */
export function registerBenchPromptSizeCommand(bench: Command): void {
  bench
    .command("prompt-size")
    .description(
      "prompt tokens with the whole Spider warehouse vs after schema selection, and non-LLM retrieval latency",
    )
    .option(
      "--url <url>",
      "the loaded and indexed Spider warehouse",
      "postgresql://postgres@127.0.0.1:5432/spider_warehouse",
    )
    .option(
      "--metadata-directory <path>",
      "PGlite metadata store nlq index wrote (default NLQ_METADATA_URL or .nlq/metadata)",
    )
    .option("--questions-file <path>", "train_queries.csv (default ../shared/data/spider-warehouse/train_queries.csv)")
    .option("--questions <count>", "questions measured", "200")
    .option("--crush-budget <columns>", "CRUSH preselection budget", "40")
    .option("--output <file>", "Markdown file to write", DEFAULT_PROMPT_SIZE_RESULTS_FILE)
    .option("--no-write", "print only, do not write the file")
    .addHelpText(
      "after",
      `
Prerequisites: the warehouse loaded (bench/spider-warehouse/README.md) and indexed:
  nlq index --url postgresql://postgres@127.0.0.1:5432/spider_warehouse`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      let options: ReturnType<typeof benchPromptSizeOptionsSchema.parse>;
      try {
        options = parseCommandOptions(benchPromptSizeOptionsSchema, givenOptions);
      } catch (error) {
        refuseInput("bench prompt-size", error);
        return;
      }
      const { runPromptSizeBenchmark, formatPromptSizeResults } = await import("@nlq/eval");
      const result = await runPromptSizeBenchmark({
        url: options.url,
        metadataDirectory: options.metadataDirectory,
        questionsFile: options.questionsFile,
        questions: options.questions,
        crushBudget: options.crushBudget,
        onProgress: (done, total) => {
          if (done % 20 === 0 || done === total) process.stderr.write(`… ${done}/${total} questions\n`);
        },
      });
      const command = `nlq bench prompt-size ${process.argv.slice(4).join(" ")}`.trim();
      const markdown = formatPromptSizeResults(result, command);
      process.stdout.write(markdown);
      if (options.write) await writeFile(options.output, markdown);
    });
}
