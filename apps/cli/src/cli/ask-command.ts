import {
  type AuditedOutcome,
  createPgExecutor,
  createQuestionAnswerer,
  dataSourceKey,
  loadServiceSettings,
  type MetadataStore,
  openQuestionMetadataStore,
  rememberPickedReading,
  roleAuthority,
  type ServiceSettings,
} from "@nlq/adapters";
import {
  type Answer,
  answerWithInterpretation,
  builtInPresetNames,
  builtInPresets,
  checkQuestionLength,
  describeKnowledgeUsed,
  describeSelection,
  loadSettings,
  QuestionTooLongError,
  type Settings,
} from "@nlq/engine";
import { describeAnswerSentence } from "@nlq/proxy";
import type { Command } from "commander";
import pg from "pg";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { askOptionsSchema, parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";
import { formatInterpretations } from "./format-interpretations";
import { formatTable } from "./format-table";
import { describeEvent } from "./progress-line";

/** Where `nlq ask` writes (stdout: the answer; stderr: progress lines and errors); tests pass their own sinks. */
export interface AskCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

/**
 * The answer as text: SQL, rows as an aligned table, the plain-language sentence when there is one, confidence, the
 * definitions it used (`knowledgeUsed`), the interpretations when the candidates disagreed (`formatInterpretations`) and the model (the sentence and the model
 * labelled when scripted).
 */
export function formatAnswer(answer: Answer): string {
  const columns = answer.result.fields.map((field) => field.name);
  const lines = [
    answer.sql.trimEnd().endsWith(";") ? answer.sql.trim() : `${answer.sql.trim()};`,
    "",
    formatTable(columns, answer.result.rows),
  ];
  if (answer.truncated) {
    const limit = answer.truncatedBy === "bytes" ? "NLQ_RESULT_BYTE_LIMIT" : "NLQ_ROW_LIMIT";
    lines.push(`(cut at ${answer.result.rows.length} rows: ${limit})`);
  }
  lines.push("");
  if (answer.summary) lines.push(describeAnswerSentence(answer.summary));
  lines.push(`selection: ${describeSelection(answer.selection, answer.confidence)}`);
  const used = describeKnowledgeUsed(answer.knowledgeUsed);
  if (used) lines.push(used);
  for (const followed of answer.followedConfirmations ?? []) {
    lines.push(
      `followed a confirmed reading: «${followed.phrase}» means ${followed.chosen.label}${followed.setAside.length > 0 ? `, not ${followed.setAside.map((choice) => choice.label).join(" or ")}` : ""} (confirmed by ${followed.confirmedBy}, ${followed.confirmedAt.slice(0, 10)})`,
    );
  }
  lines.push(...formatInterpretations(answer));
  lines.push(...describeCalls(answer.calls));
  lines.push(`model: ${answer.model.id}${answer.model.scripted ? " (scripted replay, not a language model)" : ""}`);
  if (answer.explanation) lines.push(`reasoning: ${answer.explanation}`);
  return `${lines.join("\n")}\n`;
}

/**
 * `model calls: 7 (…)` then one line per step: calls, tokens in + out, cache hits, failed calls. Nothing when no model
 * was called.
 */
export function describeCalls(calls: Answer["calls"]): string[] {
  if (calls.length === 0) return [];
  const bySteps = new Map<string, { calls: number; cached: number; failed: number; input: number; output: number }>();
  for (const call of calls) {
    const step = bySteps.get(call.step) ?? { calls: 0, cached: 0, failed: 0, input: 0, output: 0 };
    step.calls += 1;
    if (call.cached) step.cached += 1;
    if (call.failure !== undefined) step.failed += 1;
    step.input += call.inputTokens;
    step.output += call.outputTokens;
    bySteps.set(call.step, step);
  }
  const input = calls.reduce((total, call) => total + call.inputTokens, 0);
  const output = calls.reduce((total, call) => total + call.outputTokens, 0);
  return [
    `model calls: ${calls.length}, ${input}+${output} tokens`,
    ...[...bySteps].map(
      ([step, figures]) =>
        `  ${step}: ${figures.calls} ${figures.calls === 1 ? "call" : "calls"}, ${figures.input}+${figures.output} tokens${figures.cached > 0 ? `, ${figures.cached} from the cache` : ""}${figures.failed > 0 ? `, ${figures.failed} failed` : ""}`,
    ),
  ];
}

/**
 * `--remember`: keeps the picked reading in the metadata store (`rememberPickedReading`) as the URL's role, an
 * administrator (`NLQ_WEB_EXAMPLE_ADMIN_ROLE`, asked on the role's own connection) for every role. Resolves to the line
 * `nlq ask` prints: what was kept, or why nothing was.
 */
async function rememberReading(
  client: pg.Client,
  metadataStore: MetadataStore | undefined,
  service: ServiceSettings,
  dataSource: string,
  answer: Answer,
): Promise<string> {
  if (!metadataStore) return "nothing was remembered: no metadata store (NLQ_METADATA_URL, or nlq start's)";
  const authority = await roleAuthority(client, service.webExampleAdministratorRole);
  const remembered = await rememberPickedReading({
    database: metadataStore.database,
    dataSource,
    editor: { role: authority.role, administrator: authority.administrator },
    answer,
  });
  return remembered.message;
}

/** The metadata store of `nlq ask` (`openQuestionMetadataStore`), also opened by `nlq eval` and `nlq selector-data`. */
export const openAskMetadataStore = openQuestionMetadataStore;

/**
 * `nlq ask "<question>" --url <postgresql://…> [--hint <text>] [--json] [--quiet] [--reading N [--remember]]`: answers one question on the
 * database as the URL's role, read-only. Model and limits come from `NLQ_*` variables; the URL defaults to
 * `DATABASE_URL`. The metadata store (`openAskMetadataStore`) supplies the catalog index when `nlq index` built one
 * for the database (live introspection otherwise) and records the question in its query log. An empty question, a
 * URL that is not a PostgreSQL URL or a question over `NLQ_MAX_QUESTION_LENGTH` is refused before any work (exit 2).
 */
export function registerAskCommand(program: Command, output: AskCommandOutput = standardOutput): void {
  program
    .command("ask")
    .description("answer one question in natural language on a PostgreSQL database (read-only, as the URL's role)")
    .argument("<question>", 'the question, e.g. "how many customers are there?"')
    .option("--url <url>", "PostgreSQL connection URL, e.g. postgresql://user@127.0.0.1:5432/db (env: DATABASE_URL)")
    .option("--hint <text>", "extra knowledge for the model, e.g. 'revenue = sum of order totals'")
    .option(
      "--preset <preset>",
      `how hard to work: ${builtInPresetNames.map((name) => `${name} (${builtInPresets[name].description})`).join("; ")}; or a preset .json file (env: NLQ_PRESET, default balanced)`,
    )
    .option(
      "--json",
      "print the whole answer (SQL, rows, confidence, interpretations, candidates, model calls) as JSON",
      false,
    )
    .option("--quiet", "no progress lines on stderr", false)
    .option(
      "--reading <number>",
      "answer with interpretation <number> of the answer (as listed under interpretations) instead of #1; keeps nothing",
    )
    .option(
      "--remember",
      "with --reading: keep that reading as what you mean from now on (yours; an administrator's for every role)",
      false,
    )
    .addHelpText(
      "after",
      `
Environment:
  NLQ_MODEL                  model as provider:model, e.g. openai:gpt-4o-mini (with OPENAI_API_KEY),
                             anthropic:…, google:…, ollama:qwen2.5-coder:7b, openai-compatible:<model>,
                             or scripted:fixtures/demo-model.json (a scripted replay, not a language model)
  NLQ_MODEL_GENERATE, NLQ_MODEL_FIX   per-step model overrides
  NLQ_PRESET                 fast, balanced (default) or max, or a preset .json file (see docs/cli.md)
  NLQ_STATEMENT_TIMEOUT_MS   statement timeout (default 15000)
  NLQ_ROW_LIMIT              most rows returned (default 1000)
  NLQ_MAX_FIX_ATTEMPTS       fixer attempts per candidate (default 3)
  NLQ_MAX_QUESTION_LENGTH    longest question in characters (default 4000)
  NLQ_ASK_WHEN_SUPPORT_BELOW when candidates disagree, say nlq would ask which interpretation is meant when the
                             chosen one's share of candidates is below this (default 0.5; 0 never asks)
  NLQ_METADATA_URL           metadata store (PostgreSQL) with the catalog index (nlq index) and the query log
                             (default: the embedded PostgreSQL in $NLQ_HOME/.nlq/postgres when present,
                             shared with a running nlq start)
  NLQ_HOME                   where .nlq/ lives (default: the current directory)

Example:
  NLQ_MODEL=scripted:fixtures/demo-model.json nlq ask "how many customers are there?" --url postgresql://postgres@127.0.0.1:5432/postgres
  nlq ask "what is the name of every singer?" --reading 2 --remember   (answer with reading #2 and keep it)`,
    )
    .action(async (questionArgument: string, givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq ask: ${message}\n`);
        process.exitCode = exitCode;
      };
      // Inputs are checked before any work: nothing connects and no model is called for a bad one.
      let options: ReturnType<typeof askOptionsSchema.parse>;
      let question: string;
      let url: string;
      let settings: Settings;
      let service: ServiceSettings;
      try {
        options = parseCommandOptions(
          askOptionsSchema,
          { ...givenOptions, question: questionArgument },
          { question: "the question" },
        );
        question = options.question;
        service = loadServiceSettings(environment);
        const givenUrl = options.url ?? service.databaseUrl;
        if (!givenUrl) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
        // A flag is one more way to set its variable: the same schema checks it.
        settings = loadSettings(
          options.preset === undefined ? environment : { ...environment, NLQ_PRESET: options.preset },
        );
        checkQuestionLength(question, settings.maxQuestionLength);
        if (options.remember && options.reading === undefined) {
          throw new UsageError("--remember keeps the reading --reading <number> picks: pass both");
        }
      } catch (error) {
        const refusedInput = UsageError.isInstance(error) || QuestionTooLongError.isInstance(error);
        return fail(describeCommandError(error), refusedInput ? USAGE_EXIT_CODE : 1);
      }
      let client: pg.Client | undefined;
      let metadataStore: MetadataStore | undefined;
      // The audit trail records the question once the URL's role has logged in (issue 19 item 5).
      let audited: AuditedOutcome | undefined;
      let loggedIn: string | undefined;
      const askedAt = new Date();
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      process.once("SIGINT", onSignal);
      try {
        metadataStore = await openAskMetadataStore(service, (message) => output.writeError(`nlq ask: ${message}\n`));
        client = new pg.Client({ connectionString: url });
        await client.connect();
        loggedIn = client.user;
        const session = createPgExecutor(client, { name: "nlq-ask" });
        // The catalog index (`nlq index`) when the metadata store has one for this database; live introspection
        // otherwise; the question in the store's query log, model responses from its cache.
        const { answer: ask } = createQuestionAnswerer({
          store: metadataStore,
          url,
          qdrant: service.qdrant,
          queryLog: metadataStore?.queryLog,
          llmCache: metadataStore?.llmCache,
          onIndexError: (error) =>
            output.writeError(
              `nlq ask: cannot use the catalog index, answering from live introspection: ${describeCommandError(error)}\n`,
            ),
        });
        let answer = await ask({
          question,
          hint: options.hint,
          session,
          settings,
          origin: "cli",
          abortSignal: controller.signal,
          onEvent: (event) => {
            const text = options.quiet ? undefined : describeEvent(event);
            for (const line of text?.split("\n") ?? []) output.writeError(`… ${line}\n`);
          },
        });
        // `--reading N` answers with another interpretation (a pick: nothing is kept); `--remember` also keeps it.
        let remembered: string | undefined;
        if (options.reading !== undefined) {
          const asked = answer;
          answer = await answerWithInterpretation({
            answer: asked,
            number: options.reading,
            session,
            settings,
            abortSignal: controller.signal,
          });
          if (options.remember) {
            remembered = await rememberReading(client, metadataStore, service, dataSourceKey(url), answer);
          }
        }
        audited = { answer };
        output.write(
          options.json
            ? `${JSON.stringify(remembered === undefined ? answer : { ...answer, remembered }, null, 2)}\n`
            : `${formatAnswer(answer)}${remembered === undefined ? "" : `${remembered}\n`}`,
        );
      } catch (error) {
        if (loggedIn !== undefined && audited === undefined) audited = { error };
        fail(describeCommandError(error));
      } finally {
        if (audited && loggedIn !== undefined) {
          const asker = {
            surface: "cli",
            role: loggedIn,
            dataSource: dataSourceKey(url),
            applicationName: "nlq ask",
          } as const;
          metadataStore?.auditTrail.record(asker, question, audited, askedAt);
        }
        process.off("SIGINT", onSignal);
        await client?.end().catch(() => undefined);
        await metadataStore?.close().catch(() => undefined);
      }
    });
}
