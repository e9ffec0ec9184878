import { writeFile } from "node:fs/promises";
import { loadSettings } from "@nlq/engine";
import type { HallucinationVariant } from "@nlq/eval";
import type { Command } from "commander";
import { defaultRetrievalDataDirectory } from "./bench-retrieval-command";
import { USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { benchSchemaSelectionOptionsSchema, parseCommandOptions } from "./command-options";
import { describeCommandError } from "./command-output";

/**
 * `nlq bench schema-selection`: gold columns kept by the live schema selection (the selector an indexed question gets,
 * production settings) on a CRUSH4SQL-format benchmark, with the recorded hallucinations; no language model.
 */
export function registerBenchSchemaSelectionCommand(bench: Command): void {
  bench
    .command("schema-selection")
    .description(
      "gold columns kept by the live schema selection (CRUSH + learnt ranking + CHESS steps, production settings) on " +
        "BirdUnion, with the recorded hallucinations answered by a scripted model (no language model)",
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
    .option("--limit <count>", "only the first <count> questions")
    .option("--evidence", "pass the BIRD evidence as the question's hint", false)
    .option(
      "--variants <list>",
      "hallucination variants, comma separated (question-only, crush-no-hallucination, crush-recorded, crush-gold)",
    )
    .option("--per-question <file>", "also write one JSON object per question (every variant and stage) to <file>")
    .addHelpText(
      "after",
      "\nSettings come from the environment as for a question (NLQ_PRESET, NLQ_SCHEMA_SELECTION, " +
        "NLQ_SCHEMA_SELECTION_MIN_COLUMNS, NLQ_LEARNED_RETRIEVAL, NLQ_EMBEDDING_MODEL); the crush-* variants run CRUSH " +
        "whatever the preset says, question-only runs without it.",
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      try {
        // Inputs are checked before any work: no file is read for a bad one.
        const options = parseCommandOptions(benchSchemaSelectionOptionsSchema, givenOptions);
        const {
          formatSchemaSelectionResults,
          hallucinationVariants,
          readRetrievalCorpus,
          readRetrievalQuestions,
          runSchemaSelectionBenchmark,
        } = await import("@nlq/eval");
        const variants = options.variants;
        for (const name of variants ?? [])
          if (!hallucinationVariants.includes(name as HallucinationVariant))
            throw new UsageError(`--variants: unknown variant "${name}" (${hallucinationVariants.join(", ")})`);
        const limit = options.limit;
        const corpus = await readRetrievalCorpus(options.corpus);
        const questions = (await readRetrievalQuestions(options.questions)).slice(0, limit);
        const result = await runSchemaSelectionBenchmark({
          corpus,
          questions,
          settings: loadSettings(process.env),
          withEvidence: options.evidence,
          ...(variants ? { variants: variants as HallucinationVariant[] } : {}),
          onProgress: (done, total) => {
            if (done % 50 === 0 || done === total) process.stderr.write(`… ${done}/${total} questions\n`);
          },
        });
        if (options.perQuestion)
          await writeFile(
            options.perQuestion,
            result.questions
              .map((question) => JSON.stringify(question))
              .join("\n")
              .concat("\n"),
          );
        const invocation = `nlq bench schema-selection ${process.argv.slice(4).join(" ")}`.trim();
        process.stdout.write(formatSchemaSelectionResults(result, invocation));
      } catch (error) {
        process.stderr.write(`nlq bench schema-selection: ${describeCommandError(error)}\n`);
        process.exitCode = UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1;
      }
    });
}
