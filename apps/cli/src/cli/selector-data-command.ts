import { appendFile, writeFile } from "node:fs/promises";
import { createPgExecutor, createQuestionAnswerer, loadServiceSettings, type MetadataStore } from "@nlq/adapters";
import { loadSettings, seededRandom } from "@nlq/engine";
import type { SelectorDataReport } from "@nlq/eval";
import type { Command } from "commander";
import pg from "pg";
import { openAskMetadataStore } from "./ask-command";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { parseCommandOptions, selectorDataOptionsSchema } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";

/** Where `nlq selector-data` writes; tests pass their own sinks, environment and model. */
export interface SelectorDataCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
  /** Model of each step (tests: mock models). Default: from the settings (`NLQ_MODEL`…). */
  readonly resolveModel?: Parameters<typeof import("@nlq/eval").collectSelectorData>[0]["resolveModel"];
}

/** The report as text: what was generated, clustered and written, what it cost, and the model (labelled when scripted). */
export function formatSelectorDataReport(report: SelectorDataReport, out: string, preset: string): string {
  const lines = [
    `model: ${report.model.id}${report.model.scripted ? " (scripted replay, not a language model)" : ""}`,
    `preset: ${preset}`,
    `questions: ${report.questions} (${report.evaluated} with gold that ran)`,
    `candidates: ${report.candidates} written, ${report.executed} ran, ${report.clusters} result clusters (${report.correctClusters} match the gold)`,
    `examples: ${report.examples} pairwise examples from ${report.questionsWithExamples} questions, written to ${out}`,
    `questions with no correct candidate: ${report.questionsWithoutCorrectCandidate}; with every cluster correct (nothing to contrast): ${report.questionsAllCorrect}`,
    `LLM calls: ${report.llmCalls}${report.cachedCalls > 0 ? ` (${report.cachedCalls} from the cache)` : ""}, ${report.inputTokens} input + ${report.outputTokens} output tokens`,
  ];
  if (report.failures.length > 0) {
    lines.push(
      `engine failures (${report.failures.length}):`,
      ...report.failures.map((failure) => `  ${failure.id}: ${failure.error}`),
    );
  }
  if (report.goldErrors.length > 0) {
    lines.push(
      `gold errors (${report.goldErrors.length}; a question none of whose gold alternatives ran gives no examples):`,
      ...report.goldErrors.map((error) => `  ${error.id}${error.scored ? "" : " (not used)"}: ${error.error}`),
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `nlq selector-data --questions FILE --url URL --out FILE [--preset P] [--limit N] [--seed S] [--json]`: CHASE-SQL
 * selection-agent training data (§2.5) from the engine's own candidates. Each question with gold SQL goes through the
 * live path up to selection (`writeQuestionCandidates`: the catalog index and schema selection when `nlq index` built
 * one, the preset's generators × samples, the fixer, execution); its candidates are clustered by result, the clusters
 * labelled against the gold by execution, and each pair of a correct and an incorrect cluster written as one pairwise
 * example (JSONL). The summary counts questions, candidates, clusters, examples and LLM calls and tokens.
 */
export function registerSelectorDataCommand(
  program: Command,
  output: SelectorDataCommandOutput = standardOutput,
): void {
  program
    .command("selector-data")
    .description(
      "pairwise selection-agent training data (CHASE-SQL): generate candidates for questions with gold SQL, label their result clusters, write A/B examples",
    )
    .option(
      "--questions <file>",
      "JSONL ({question, gold, schema?, hint?}) or a defog CSV (question, query, db_name, instructions?)",
    )
    .option("--url <url>", "PostgreSQL connection URL holding the data (env: DATABASE_URL)")
    .option("--out <file>", "where the examples go, one JSON object per line")
    .option("--preset <preset>", "fast, balanced or max, or a preset .json file (env: NLQ_PRESET)")
    .option("--limit <count>", "only the first <count> questions")
    .option("--seed <seed>", "seed of the A/B shuffle (a whole number)", "8")
    .option("--json", "print the summary as JSON", false)
    .addHelpText(
      "after",
      `
For each question the configured preset's generators write their samples, the fixer revises the ones that fail, and
the candidates run read-only; nothing is selected. The candidates that ran are clustered by result as the selection
stage clusters them, each cluster's representative is run again without row cap and labelled correct when it matches
the gold (defog's {a,b} and ";" notation accepted), and each pair of a correct and an incorrect cluster becomes one
line: {"id", "question", "system", "prompt", "answer": "A"|"B", "candidateA", "candidateB"}, where system and prompt
are exactly what the pairwise selector sends (schema union of the two queries, the question and hint, both queries
with a preview of their results) and the correct side is drawn at random (--seed). Questions whose clusters are all
correct or all wrong give no line. A model fine-tuned on these lines is then configured for the selection step alone:
NLQ_MODEL_SELECTION=openai:ft:gpt-4o-mini:org::id (or a preset's "stepModels": {"select-candidate": …}) with
NLQ_SELECTOR=pairwise or the max preset. A scripted model (NLQ_MODEL=scripted:…) is named as such in the summary.

Example:
  NLQ_MODEL=scripted:fixtures/demo-model.json nlq selector-data --questions demo-gold.jsonl --preset max \\
    --url postgresql://postgres@127.0.0.1:5432/demo --out pairs.jsonl`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq selector-data: ${message}\n`);
        process.exitCode = exitCode;
      };
      // Inputs are checked before any work: nothing connects and no file is read for a bad one.
      let options: ReturnType<typeof selectorDataOptionsSchema.parse>;
      let url: string;
      try {
        options = parseCommandOptions(selectorDataOptionsSchema, givenOptions);
        const givenUrl = options.url ?? loadServiceSettings(environment).databaseUrl;
        if (givenUrl === undefined) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
      } catch (error) {
        return fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
      }
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      const seed = options.seed;
      const out = options.out;
      let client: pg.Client | undefined;
      let metadataStore: MetadataStore | undefined;
      try {
        // A flag is one more way to set its variable: the same schema checks it.
        const settings = loadSettings(
          options.preset === undefined ? environment : { ...environment, NLQ_PRESET: options.preset },
        );
        const service = loadServiceSettings(environment);
        const evaluation = await import("@nlq/eval");
        // Resolved before any work: no model configured stops here with the setup instructions.
        const model = evaluation.generationModel({ settings, resolveModel: output.resolveModel });
        const questions = (await evaluation.readQuestionFile(options.questions)).slice(0, limit);
        metadataStore = await openAskMetadataStore(service, (message) =>
          output.writeError(`nlq selector-data: ${message}\n`),
        );
        client = new pg.Client({ connectionString: url });
        await client.connect();
        const session = createPgExecutor(client, { name: "nlq-selector-data" });
        const execute = evaluation.createEvaluationExecutor({
          session,
          statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
          allowedFunctions: settings.allowedFunctions,
        });
        const store = metadataStore;
        await writeFile(out, "");
        const outcomes = await evaluation.collectSelectorData({
          questions,
          session,
          execute,
          settings,
          resolveModel: output.resolveModel,
          // The catalog index and schema selection of `nlq index` when there is one, retrieval in every case, as
          // `nlq ask` composes them.
          answerer: createQuestionAnswerer({
            store,
            url,
            qdrant: service.qdrant,
            onIndexError: (error) =>
              output.writeError(`nlq selector-data: cannot use the catalog index: ${describeCommandError(error)}\n`),
          }),
          ...(store ? { llmCache: store.llmCache } : {}),
          random: seededRandom(seed),
          onExamples: async (examples) => {
            if (examples.length > 0)
              await appendFile(out, examples.map((example) => `${JSON.stringify(example)}\n`).join(""));
          },
          onQuestion: (_, index) => {
            if (!options.json) output.writeError(`… ${index + 1}/${questions.length}\r`);
          },
        });
        const report = evaluation.summarizeSelectorData(outcomes, model);
        output.write(
          options.json
            ? `${JSON.stringify(report, null, 2)}\n`
            : formatSelectorDataReport(report, out, settings.preset.name),
        );
      } catch (error) {
        fail(describeCommandError(error));
      } finally {
        await client?.end().catch(() => undefined);
        await metadataStore?.close().catch(() => undefined);
      }
    });
}
