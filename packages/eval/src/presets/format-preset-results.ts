import type { PresetFigures } from "./preset-report";

function figure(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** Where the figures were measured: the heading, the method paragraph and the setup line before the command. */
export interface PresetResultsSetting {
  readonly heading: string;
  /** What the model is, when it is not the configured one (e.g. scripted from gold). Default: from the figures. */
  readonly modelNote?: string;
  readonly method: readonly string[];
  readonly setup: string;
}

/** The demo database with the demo fixture (`nlq bench presets` without `--questions`). */
export const demoSetting: PresetResultsSetting = {
  heading: "## Presets (issue 8)",
  method: [
    "Method: every question of the fixture is asked with each preset through `createQuestionAnswerer` (the production",
    "path of `nlq ask`, the proxy and the web app) on one session of the database, the catalog introspected live (no",
    "index: retrieval — extract_keywords, then values from the live lookup — as on any database nothing is indexed for;",
    "no CRUSH or schema selection: the demo catalog is far below `NLQ_SCHEMA_SELECTION_MIN_COLUMNS`).",
  ],
  setup: "# the demo data first: createdb <database> && nlq demo load --url <its url>",
};

/** The Spider warehouse, indexed, with the model scripted from `train_queries.csv`'s gold (`--questions`). */
export const warehouseSetting: PresetResultsSetting = {
  heading: "### Presets on the Spider warehouse (issue 8)",
  modelNote:
    "`scripted:gold-from-train-queries` — **a model scripted from each question's gold SQL, not a language model**: the calls and prompts are the ones the pipeline makes, so calls and tokens are a floor of what a real model needs, and accuracy means nothing. SQL-writing steps answer the gold translated to PostgreSQL, except the third query-plan sample (only `max` draws it), which answers the gold's rows twice (`SELECT * FROM (gold) UNION ALL SELECT * FROM (gold)`) so that `max` has two result clusters; the CRUSH hallucination and select_tables/select_columns answer the gold tables and columns (`prompt-size/gold-columns.ts`); extract_keywords answers `heuristicKeywords`; filter_column marks nothing irrelevant; the fixer answers the gold; the pairwise agent picks the candidate that is not the perturbed one",
  method: [
    "Method: every n-th question of `train_queries.csv` whose gold translated (an n-th one whose gold does not run on",
    "the warehouse gives way to the next that does) is asked with each preset through `createQuestionAnswerer` with",
    "`search_path` set to its database's schema, on the production path of an indexed database (the whole indexed",
    "warehouse catalog, CRUSH on `balanced`/`max`, the CHESS selector).",
  ],
  setup:
    "# the warehouse first: npx tsx bench/spider-warehouse/load-spider-warehouse.ts --url <url>; NLQ_HOME=<dir> nlq index --url <url>",
};

/**
 * The figures as Markdown: one column per preset, the per-step calls, the method and its caveats (scripted replay,
 * token approximation) and the exact command.
 */
export function formatPresetResults(
  figures: readonly PresetFigures[],
  command: string,
  setting: PresetResultsSetting = demoSetting,
): string {
  const header = `| measure | ${figures.map((preset) => `\`${preset.preset}\``).join(" | ")} |`;
  const rule = `|---|${figures.map(() => "---").join("|")}|`;
  const row = (label: string, cell: (preset: PresetFigures) => string) =>
    `| ${label} | ${figures.map(cell).join(" | ")} |`;
  const steps = [...new Set(figures.flatMap((preset) => Object.keys(preset.steps)))];
  const models = [...new Set(figures.map((preset) => `\`${preset.model}\``))].join(", ");
  const scripted = figures.every((preset) => preset.scripted);
  const failures = figures.flatMap((preset) =>
    preset.failed.map((failed) => `- \`${preset.preset}\`: "${failed.question}" — ${failed.error}`),
  );
  const crush = figures.some((preset) => preset.crushQuestions + preset.crushFallbacks > 0);
  const lines = [
    setting.heading,
    "",
    setting.modelNote
      ? `Model: ${setting.modelNote}.`
      : `Model: ${models}${scripted ? " — **a scripted replay of recorded answers, not a language model**: the calls, prompts and candidates are the ones the pipeline makes, but the SQL is hand-written" : ""}.`,
    "Prompt tokens are **approximations** (no tokenizer is installed): the characters of every call's system and prompt messages, recorded by a wrapper around the model, divided by 4.",
    "",
    header,
    rule,
    row("questions answered", (preset) => `${preset.answered} / ${preset.questions}`),
    row(
      "LLM calls per question, median (total)",
      (preset) => `${figure(preset.callsMedian, 1)} (${preset.callsTotal})`,
    ),
    row(
      "prompt tokens per question ≈ chars/4, median (total)",
      (preset) => `${figure(preset.promptTokensMedian)} (${preset.promptTokensTotal})`,
    ),
    row(
      "candidates per answered question, median (total)",
      (preset) => `${figure(preset.candidatesMedian, 1)} (${preset.candidatesTotal})`,
    ),
    row(
      "distinct results per answered question, median (total)",
      (preset) => `${figure(preset.clustersMedian, 1)} (${preset.clustersTotal})`,
    ),
    row("answered questions whose candidates disagreed", (preset) => `${preset.questionsWithSelection}`),
    row("selector (configured)", (preset) => preset.selector),
    row("selector calls made (measured)", (preset) => `${preset.selectorCalls}`),
    row("questions where it failed and self-consistency chose", (preset) => `${preset.selectorFallbacks}`),
    row("model calls that failed", (preset) => `${preset.failedCalls}`),
    row(
      "pairwise calls over clusters vs. all pairs of candidates (saved)",
      (preset) => `${preset.pairwiseMade} vs. ${preset.pairwiseAllPairs} (${preset.pairwiseSaved})`,
    ),
    ...(crush
      ? [
          row(
            "questions where CRUSH ran in the live path (crush-start/end)",
            (preset) => `${preset.crushQuestions} / ${preset.questions}`,
          ),
          row("crush: columns kept per question, median (budget)", (preset) =>
            preset.crushQuestions > 0 ? `${figure(preset.crushColumnsMedian)} (${preset.crushBudget})` : "—",
          ),
          row("CRUSH fell back to no picks", (preset) => `${preset.crushFallbacks}`),
          row("columns shown to generation, median", (preset) => figure(preset.schemaColumnsMedian)),
        ]
      : []),
    row(
      "sequential model rounds per question, median (largest)",
      (preset) => `${figure(preset.modelRoundsMedian, 1)} (${preset.modelRoundsMaximum})`,
    ),
    row("filter_column calls per question where it ran, median", (preset) =>
      preset.filterBatchesMedian > 0 ? figure(preset.filterBatchesMedian, 1) : "—",
    ),
    row("wall time per question, median ms", (preset) => figure(preset.elapsedMillisecondsMedian)),
    "",
    "LLM calls per step, total over the questions (prompt tokens ≈ chars/4):",
    "",
    header,
    rule,
    ...steps.map((step) =>
      row(`\`${step}\``, (preset) => {
        const figures = preset.steps[step];
        return figures ? `${figures.callsTotal} (${figures.promptTokensTotal})` : "0";
      }),
    ),
    "",
    ...(failures.length > 0 ? ["Questions not answered:", "", ...failures, ""] : []),
    ...setting.method,
    'Calls are counted as they reach the model (by the wrapper; failed calls and failed questions included). "Pairwise calls over',
    'clusters" is `pairwiseCallCount(…).made` (both orders of every pair of distinct results), "all pairs" every',
    "ordered pair of candidates that ran; the measured selector calls are what the configured selector actually made",
    "(`fast` and `balanced` choose by self-consistency and make none: for them the pairwise figures say what that agent",
    "would cost). A configured selector that fails (its model call errs) stops after the failed call, so measured calls",
    "can be fewer than `made`; the engine then lets self-consistency choose and says so in the answer's basis.",
    "Wall time: one process on a shared 2-core machine with the",
    "scripted model answering instantly, so it is the pipeline's own overhead (SQL execution, parsing), not model latency.",
    "",
    "```sh",
    setting.setup,
    command,
    "```",
    "",
  ];
  return lines.join("\n");
}
