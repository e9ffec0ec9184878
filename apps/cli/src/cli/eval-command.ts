import { appendFile, readFile, writeFile } from "node:fs/promises";
import { createPgExecutor, loadServiceSettings, type MetadataStore } from "@nlq/adapters";
import { loadSettings, type Settings, seededRandom } from "@nlq/engine";
import type { PoolReport, QuestionReport, VerifiedExampleComparison } from "@nlq/eval";
import type { Command } from "commander";
import pg from "pg";
import { openAskMetadataStore } from "./ask-command";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { evalOptionsSchema, parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";
import { createQuestionTargets, databaseUrl } from "./eval-question-targets";
import { formatQuestionReport, goldErrorLines } from "./format-question-report";
import { formatTable } from "./format-table";

/** Where `nlq eval` writes; tests pass their own sinks, environment and model. */
export interface EvalCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
  /** Model of each step (tests: mock models). Default: from the settings (`NLQ_MODEL`…). */
  readonly resolveModel?: Parameters<typeof import("@nlq/eval").evaluateQuestions>[0]["resolveModel"];
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** What a model selector cost, for its row of the text report. */
function selectorCost(figure: object): string {
  if (!("llmCalls" in figure)) return "";
  const cost = figure as { llmCalls: number; inputTokens: number; outputTokens: number; failures: number };
  return `${cost.llmCalls} LLM calls, ${cost.inputTokens} input + ${cost.outputTokens} output tokens${cost.failures > 0 ? `, ${cost.failures} failed` : ""}`;
}

/** The candidate-pool report as text: one row per source and selector, the selection model and its cost. */
export function formatPoolReport(report: PoolReport): string {
  const model = report.model
    ? [
        `selection model: ${report.model.id}${report.model.scripted ? " (scripted replay, not a language model)" : ""}`,
        `pairwise calls over cluster representatives: ${report.pairwiseCalls.made} (all pairs of candidates: ${report.pairwiseCalls.allPairs}; pairs with different results: ${report.pairwiseCalls.differingPairs})`,
      ]
    : ["pairwise agent and unit tester not run: no model configured (NLQ_MODEL or NLQ_MODEL_SELECTION)"];
  const rows = [
    ...Object.entries(report.sources).map(([source, figure]) => [
      `source ${source}`,
      percent(figure.ex),
      percent(figure.setEx),
      `${figure.candidates} candidates, ${figure.errors} errors`,
    ]),
    ...Object.entries(report.selectors).map(([selector, figure]) => [
      selector,
      percent(figure.ex),
      percent(figure.setEx),
      selectorCost(figure),
    ]),
  ];
  return `${[`${report.questions} questions`, formatTable(["", "EX", "set EX", ""], rows), ...model, ...goldErrorLines(report)].join("\n")}\n`;
}

const points = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)} points`;

/** The verified-example comparison as text: EX of the held-out half without and with examples, and the difference. */
export function formatVerifiedExampleComparison(report: VerifiedExampleComparison): string {
  const row = (label: string, figure: QuestionReport) => [
    label,
    String(figure.questions),
    percent(figure.ex),
    percent(figure.setEx),
    `${figure.perQuestion.inputTokens.toFixed(0)} input tokens per question`,
  ];
  const given = report.questionsGivenExamples;
  return `${[
    `model: ${report.model.id}${report.model.scripted ? " (scripted replay, not a language model)" : ""}`,
    `split (seed ${report.seed}): ${report.split.exampleIds.length} questions as verified examples, ${report.split.heldOutIds.length} held out; ${report.questionsWithExamples} held-out questions were given at least one similar example`,
    formatTable(
      ["held-out half", "questions", "EX", "set EX", ""],
      [row("without examples", report.withoutExamples), row("with examples", report.withExamples)],
    ),
    `difference: EX ${points(report.difference.ex)}, set EX ${points(report.difference.setEx)}`,
    `on the ${given.questions} scored questions given examples: EX ${percent(given.withoutExamples.ex)} without, ${percent(given.withExamples.ex)} with`,
    `engine or SQL failures: ${report.withoutExamples.failures} without, ${report.withExamples.failures} with`,
    ...(report.note === undefined ? [] : [`note: ${report.note}`]),
    ...goldErrorLines(report.withoutExamples),
  ].join("\n")}\n`;
}

/**
 * Checks, before anything is asked, that every `database` the questions name is a database name and exists on the
 * server of `--url`: a missing one fails the run at once, naming it, rather than at its first question.
 */
async function checkQuestionDatabases(
  client: pg.Client,
  url: string,
  questions: ReadonlyArray<{ readonly database?: string }>,
): Promise<void> {
  const named = [
    ...new Set(questions.flatMap((question) => (question.database === undefined ? [] : [question.database]))),
  ];
  if (named.length === 0) return;
  for (const database of named) databaseUrl(url, database);
  const found = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_catalog.pg_database WHERE datname = ANY($1::text[])",
    [named],
  );
  const existing = new Set(found.rows.map((row) => row.datname));
  const missing = named.filter((database) => !existing.has(database));
  if (missing.length > 0)
    throw new UsageError(
      `the question file names database${missing.length === 1 ? "" : "s"} the server of --url does not have: ${missing.join(", ")}`,
    );
}

/**
 * `nlq eval --candidates FILE | --questions FILE --url URL [--json]`: execution accuracy. Candidate pools are scored
 * per source and by the selectors (oracle, random, self-consistency; the pairwise agent and the unit tester when a
 * model is configured) without generating anything; questions with gold
 * SQL are answered by the engine with the configured model and scored per category.
 */
export function registerEvalCommand(program: Command, output: EvalCommandOutput = standardOutput): void {
  program
    .command("eval")
    .description(
      "execution accuracy of a candidate pool (--candidates) or of the engine on questions with gold SQL (--questions)",
    )
    .option(
      "--candidates <file>",
      'JSONL: {"id","question","schema"?,"gold","candidates":[{"source","sql"}]} per line; or a question CSV (Spider\'s train_queries.csv, defog), scored with its gold as the only candidate',
    )
    .option(
      "--questions <file>",
      "JSONL ({question, gold, schema?, database?, category?}; gold may be a list of readings, or query1, query2, …), a defog CSV (question, query, db_name, …) or Spider's train_queries.csv (database, question, sql: MySQL gold translated to PostgreSQL)",
    )
    .option("--url <url>", "PostgreSQL connection URL holding the data (env: DATABASE_URL)")
    .option("--limit <count>", "only the first <count> questions")
    .option("--preset <preset>", "with --questions: fast, balanced or max, or a preset .json file (env: NLQ_PRESET)")
    .option(
      "--selector-data <file>",
      "with --candidates: also write pairwise selection-agent training examples (JSONL) from correct/incorrect clusters",
    )
    .option(
      "--compare-verified-examples",
      "with --questions: split the questions in two halves (seeded, per schema), answer one half with and without the other half's question–gold pairs as verified examples, report EX both ways",
      false,
    )
    .option("--split-seed <seed>", "seed of the --compare-verified-examples split", "1")
    .option("--json", "print the report as JSON", false)
    .addHelpText(
      "after",
      `
Gold SQL may use defog's notation: {a,b} accepts any non-empty subset of the listed columns, ";" separates
alternative gold queries. Results are equal when their row multisets are (in order when the gold orders at its top
level), numbers within 1e-6, NULL = NULL; column names are ignored, column order is not. "set EX" is BIRD's set
equality. With --questions, "EX (Spider rule)" is the official Spider test-suite evaluation's rule: a permutation of
columns is the same result, rows are compared in order when the gold's text has "order by", two empty results are
equal, DISTINCT is removed from both queries, numbers compare exactly. Self-consistency picks the largest cluster of equal results; a tie goes to the cluster whose first member
comes first in the candidate list. Random is the exact expectation of picking one candidate uniformly.
With a model configured (NLQ_MODEL or NLQ_MODEL_SELECTION), the CHASE-SQL pairwise agent and the CHESS unit tester
(NLQ_UNIT_TESTS tests) choose too, each within the per-question budget (NLQ_MAX_LLM_CALLS); their calls and tokens are
reported, and a scripted model is named as such. --selector-data writes CHASE-SQL's selection-agent training examples:
for each pair of a correct and an incorrect result cluster, the exact select-candidate prompt (schema union, both
queries with results, correct side shuffled) and its answer, one JSON object per line.
Spider's train_queries.csv (header database,question,sql): each gold query is translated from MySQL to PostgreSQL
(node-sql-parser; double-quoted strings become literals, names are lower-cased as the warehouse loader writes them)
and runs with search_path set to the lower-cased database name. A gold that does not translate or does not run is
counted under "gold does not run" and not scored. --candidates with a CSV scores the gold itself as the only
candidate: the check that the translated gold runs and scores 100%.
A question with several gold readings (JSONL "gold": [..] or "query1", "query2", …: AmbiQT) is scored by which
readings the answer's own result (#1) and its other interpretations return: both found (every reading offered),
either found, the answer's own result a reading (its EX). On a question with one reading, an answer that sets
needsChoice or shows more than one interpretation is a false alarm. A question's "database" is asked on that database
of --url's server, as --url's user (each database on its own connection, catalog index and value index).
With --questions, a database indexed with nlq index (NLQ_HOME) is answered on the indexed path, as nlq ask does:
the indexed catalog, and above NLQ_SCHEMA_SELECTION_MIN_COLUMNS the schema selector with CRUSH.

--compare-verified-examples measures what verified examples (thumbs-up or corrected answers in the web app) are
worth: the held-out half is answered twice, once with no examples and once with the pairs of the example half that the
web app's similarity (content-word Jaccard, at most 3, at least 0.3, same schema) picks for each question. With a
scripted model the figures only check the harness.

Examples:
  nlq eval --candidates pool.jsonl --url postgresql://postgres@127.0.0.1:5432/defog
  nlq eval --candidates ../shared/data/spider-warehouse/train_queries.csv --url postgresql://…/spider_warehouse
  NLQ_MODEL=openai:gpt-4o-mini nlq eval --questions questions.jsonl --url postgresql://… --compare-verified-examples`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq eval: ${message}\n`);
        process.exitCode = exitCode;
      };
      // Inputs are checked before any work: nothing connects and no file is read for a bad one.
      let options: ReturnType<typeof evalOptionsSchema.parse>;
      let url: string;
      let settings: Settings;
      try {
        options = parseCommandOptions(evalOptionsSchema, givenOptions);
        const givenUrl = options.url ?? loadServiceSettings(environment).databaseUrl;
        if (givenUrl === undefined) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
        // A flag is one more way to set its variable: the same schema checks it.
        settings = loadSettings(
          options.preset === undefined ? environment : { ...environment, NLQ_PRESET: options.preset },
        );
      } catch (error) {
        return fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
      }
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      const evaluation = await import("@nlq/eval");
      const client = new pg.Client({ connectionString: url });
      let metadataStore: MetadataStore | undefined;
      let closeTargets: (() => Promise<void>) | undefined;
      try {
        await client.connect();
        const session = createPgExecutor(client, { name: "nlq-eval" });
        const execute = evaluation.createEvaluationExecutor({
          session,
          statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
          allowedFunctions: settings.allowedFunctions,
          trustedOwners: settings.trustedOwners,
        });
        const progress = (index: number, total: number) => {
          if (!options.json) output.writeError(`… ${index + 1}/${total}\r`);
        };
        if (options.candidates !== undefined) {
          const questions = (
            options.candidates.toLowerCase().endsWith(".csv")
              ? evaluation.goldAsCandidatePool(await evaluation.readQuestionFile(options.candidates))
              : evaluation.parseCandidatePool(await readFile(options.candidates, "utf8"))
          ).slice(0, limit);
          const model = evaluation.selectionModel({ settings, resolveModel: output.resolveModel });
          const loadCatalog = evaluation.createPoolCatalogLoader(session, settings.statementTimeoutMilliseconds);
          const selectorData = options.selectorData;
          const random = seededRandom(8);
          let examples = 0;
          if (selectorData !== undefined) await writeFile(selectorData, "");
          const outcomes = await evaluation.evaluateCandidatePool({
            questions,
            execute,
            ...(model === undefined
              ? {}
              : {
                  modelSelection: {
                    selectors: evaluation.modelSelectorNames,
                    settings,
                    resolveModel: output.resolveModel,
                    loadCatalog,
                  },
                }),
            ...(selectorData === undefined
              ? {}
              : {
                  onClusters: async (question, clusters, clusterCorrect) => {
                    const lines = evaluation.selectorTrainingExamples({
                      question,
                      clusters,
                      clusterCorrect,
                      catalog: await loadCatalog(question.schema),
                      random,
                    });
                    examples += lines.length;
                    if (lines.length > 0)
                      await appendFile(selectorData, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
                  },
                }),
            onQuestion: (_, index) => progress(index, questions.length),
          });
          const report = evaluation.summarizePool(outcomes, model);
          output.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatPoolReport(report));
          if (selectorData !== undefined)
            output.writeError(`wrote ${examples} pairwise selector training examples to ${selectorData}\n`);
        } else {
          const questions = (await evaluation.readQuestionFile(options.questions!)).slice(0, limit);
          const model = evaluation.generationModel({ settings, resolveModel: output.resolveModel });
          // The catalog index (`nlq index` in NLQ_HOME) when there is one, as `nlq ask` uses it: the indexed catalog,
          // and on large catalogs the schema selector with CRUSH; live introspection otherwise.
          const service = loadServiceSettings(environment);
          metadataStore = await openAskMetadataStore(service, (message) => output.writeError(`nlq eval: ${message}\n`));
          // Questions that name a `database` are asked on it (same server and user as --url), each database with its
          // own connection and composition; the others on --url's.
          await checkQuestionDatabases(client, url, questions);
          const targets = createQuestionTargets({
            url,
            settings,
            evaluation,
            ...(metadataStore === undefined ? {} : { store: metadataStore }),
            ...(service.qdrant === undefined ? {} : { qdrant: service.qdrant }),
            onIndexError: (error) =>
              output.writeError(`nlq eval: cannot use the catalog index: ${describeCommandError(error)}\n`),
          });
          closeTargets = targets.close;
          // What both runs share: the questions on this session, through the index when there is one. Retrieval runs
          // on every question: without an index, on a value index built in the background (this process asks many
          // questions) and the live lookup until it is ready.
          const asked = {
            questions,
            session,
            execute,
            settings,
            resolveModel: output.resolveModel,
            answerer: targets.composition(url),
            targetFor: targets.targetFor,
          };
          if (options.compareVerifiedExamples) {
            const comparison = await evaluation.compareVerifiedExamples({
              ...asked,
              seed: options.splitSeed,
              model,
              onProgress: (done, total) => progress(done - 1, total),
            });
            output.write(
              options.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatVerifiedExampleComparison(comparison),
            );
            return;
          }
          const outcomes = await evaluation.evaluateQuestions({
            ...asked,
            onQuestion: (_, index) => progress(index, questions.length),
          });
          const report = evaluation.summarizeQuestions(outcomes, model);
          output.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatQuestionReport(report));
        }
      } catch (error) {
        // A question file naming a bad or missing database is a usage error, found before anything was asked.
        fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
      } finally {
        await closeTargets?.().catch(() => undefined);
        await client.end().catch(() => undefined);
        await metadataStore?.close().catch(() => undefined);
      }
    });
}
