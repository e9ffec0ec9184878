import path from "node:path";
import type { Command } from "commander";
import { benchValuesOptionsSchema, parseCommandOptions } from "./command-options";
import { refuseInput } from "./command-output";

// The benchmark harness lives in @nlq/eval and is loaded only when this command runs, so other commands
// (`nlq proxy`, `nlq start`) do not pay for it at start-up.
const DEFAULT_VALUE_RESULTS_FILE = path.resolve(
  import.meta.dirname,
  "../../../../packages/eval/src/value-index/RESULTS.md",
);

/**
 * `nlq bench values`: value index build throughput, memory, latency and recall vs brute force, pg_trgm and the index
 * the metadata store serves.
 */
export function registerBenchValuesCommand(bench: Command): void {
  bench
    .command("values")
    .description("value index (MinHash LSH) vs brute-force edit distance vs pg_trgm at growing sizes")
    .option("--levels <counts>", "distinct values per level, comma separated", "100000,1000000,10000000")
    .option("--keywords <count>", "typo'd keywords per level", "200")
    .option("--brute-force-keywords <count>", "keywords that get the brute-force reference", "200")
    .option("--brute-force-seconds <seconds>", "time limit of brute force per level", "300")
    .option("--pg-trgm-max <count>", "largest level compared with pg_trgm (0: never)", "1000000")
    .option(
      "--stored-max <count>",
      "largest level compared with the index the metadata store serves (0: never)",
      "1000000",
    )
    .option(
      "--database-url <url>",
      "server for pg_trgm's and the stored index's throwaway databases (default NLQ_TEST_DATABASE_URL or local)",
    )
    .option("--spider-directory <path>", "spider-warehouse/databases directory with the real values")
    .option("--output <file>", "Markdown snippet to write", DEFAULT_VALUE_RESULTS_FILE)
    .option("--no-write", "print only, do not write the snippet")
    .action(async (givenOptions: Record<string, unknown>) => {
      let options: ReturnType<typeof benchValuesOptionsSchema.parse>;
      try {
        options = parseCommandOptions(benchValuesOptionsSchema, givenOptions);
      } catch (error) {
        refuseInput("bench values", error);
        return;
      }
      const { runValueBenchmark, formatValueResults, writeValueResults } = await import("@nlq/eval");
      const result = await runValueBenchmark({
        levels: options.levels,
        keywords: options.keywords,
        bruteForceKeywords: options.bruteForceKeywords,
        bruteForceSeconds: options.bruteForceSeconds,
        pgTrgmMaxLevel: options.pgTrgmMax,
        storedMaxLevel: options.storedMax,
        serverUrl: options.databaseUrl,
        spiderDirectory: options.spiderDirectory,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(`${formatValueResults(result)}\n`);
      if (options.write) {
        writeValueResults(options.output, result, `nlq bench values ${process.argv.slice(4).join(" ")}`.trim());
        process.stderr.write(`wrote ${options.output}\n`);
      }
    });
}
