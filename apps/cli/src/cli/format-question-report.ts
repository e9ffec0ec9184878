import type { QuestionReport } from "@nlq/eval";
import { formatTable } from "./format-table";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const ofTotal = (count: number, total: number) => `${count}/${total}`;

type Figure = QuestionReport["categories"][string];

/** One line of text, at most `length` characters. */
export function oneLine(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** The lines of gold queries that did not run (shared with the candidate-pool report). */
export function goldErrorLines(report: { goldErrors: QuestionReport["goldErrors"] }): string[] {
  if (report.goldErrors.length === 0) return [];
  const notScored = new Set(report.goldErrors.filter((error) => !error.scored).map((error) => error.id)).size;
  return [
    "",
    `gold does not run (not scored): ${notScored} question${notScored === 1 ? "" : "s"}`,
    `gold errors (${report.goldErrors.length}; a question none of whose gold alternatives ran is not scored):`,
    ...report.goldErrors.map((error) => `  ${error.id}${error.scored ? "" : " (not scored)"}: ${error.error}`),
  ];
}

/**
 * The reading figures as text: a table per category (questions with several gold readings: both and either found;
 * with one: false alarms; both: interpretations shown and `needsChoice`) and the overall lines. Empty when no
 * question was scored.
 */
export function readingLines(report: QuestionReport): string[] {
  const { several, single } = report.readings;
  if (several.questions + single.questions === 0) return [];
  const row = (category: string, figure: Figure) => {
    const { several: many, single: one } = figure.readings;
    const doubt = many.questions + one.questions;
    return [
      category,
      String(many.questions),
      many.questions === 0 ? "" : ofTotal(many.bothFound, many.questions),
      many.questions === 0 ? "" : ofTotal(many.eitherFound, many.questions),
      String(one.questions),
      one.questions === 0 ? "" : ofTotal(one.falseAlarms, one.questions),
      ofTotal(many.withInterpretations + one.withInterpretations, doubt),
      ofTotal(many.needsChoice + one.needsChoice, doubt),
    ];
  };
  const lines = [
    "",
    formatTable(
      [
        "category",
        "several readings",
        "both found",
        "either found",
        "one reading",
        "false alarms",
        "interpretations shown",
        "needsChoice",
      ],
      [...Object.entries(report.categories).map(([category, figure]) => row(category, figure)), row("overall", report)],
    ),
  ];
  if (several.questions > 0)
    lines.push(
      `several readings (${several.questions} questions): both found ${percent(several.bothFoundRate)}, either found ${percent(several.eitherFoundRate)}, the answer's own result is a reading ${percent(several.firstReadingMatchesRate)}, more than one interpretation shown ${percent(several.withInterpretationsRate)}, needsChoice ${percent(several.needsChoiceRate)}`,
    );
  if (single.questions > 0)
    lines.push(
      `one reading (${single.questions} questions): false-alarm rate ${percent(single.falseAlarmRate)} (needsChoice or more than one interpretation), needsChoice ${percent(single.needsChoiceRate)}`,
    );
  const withSeveral = report.results.filter((result) => result.bothFound !== undefined);
  if (withSeveral.length > 0) {
    lines.push("", "readings offered, per question with several (#1 is the answer's own result):");
    for (const result of withSeveral) {
      const found = result.readings
        .map(
          (reading) =>
            `reading ${reading.number} ${reading.matchedBy.length === 0 ? "not offered" : `= ${reading.matchedBy.map((number) => `#${number}`).join(", ")}`}`,
        )
        .join("; ");
      lines.push(
        `  ${result.id} [${result.category}]: ${found} (${result.interpretations} interpretations${result.needsChoice ? ", needsChoice" : ""})`,
      );
    }
  }
  const alarms = report.results.filter((result) => result.falseAlarm === true);
  if (alarms.length > 0)
    lines.push(
      "",
      `false alarms (${alarms.length}):`,
      ...alarms.map(
        (result) =>
          `  ${result.id} [${result.category}]: ${result.interpretations} interpretations${result.needsChoice ? ", needsChoice" : ""}`,
      ),
    );
  return lines;
}

/**
 * Every scored question that was not answered correctly, one readable line each: its id, what went wrong (the engine's
 * error with its class and SQLSTATE, the chosen SQL's execution error, or a wrong result), how the answer was chosen,
 * and the SQL.
 */
export function failureLines(report: Pick<QuestionReport, "results">): string[] {
  const wrong = report.results.filter((result) => result.scored && !result.correct);
  if (wrong.length === 0) return [];
  const scored = report.results.filter((result) => result.scored).length;
  return [
    "",
    `not correct (${wrong.length} of ${scored} scored):`,
    ...wrong.map((result) => {
      const what =
        result.failedIn === "engine"
          ? `engine error ${result.errorName ?? "Error"}${result.errorCode ? ` (${result.errorCode})` : ""}: ${oneLine(result.error ?? "", 200)}`
          : result.failedIn === "execution"
            ? `SQL error: ${oneLine(result.error ?? "", 200)}`
            : result.spiderCorrect
              ? "wrong result under nlq's rule, correct under the Spider rule"
              : "wrong result";
      const how =
        result.chosenBy === undefined
          ? `${result.calls} calls`
          : `${result.calls} calls, ${result.candidates} candidates, ${result.clusters} clusters, chosen by ${result.chosenBy}`;
      const sql = result.sql === undefined ? "" : `\n      ${oneLine(result.sql, 300)}`;
      return `  ${result.id} [${result.category}]: ${what} (${how})${sql}`;
    }),
  ];
}

/**
 * The questions report as text: EX per category under nlq's rule and the Spider rule, the reading figures, cost per
 * question, and the model (labelled when scripted).
 */
export function formatQuestionReport(report: QuestionReport): string {
  const rows = [
    ...Object.entries(report.categories).map(([category, figure]) => [
      category,
      String(figure.questions),
      percent(figure.ex),
      percent(figure.spiderEx),
      percent(figure.setEx),
    ]),
    ["overall", String(report.questions), percent(report.ex), percent(report.spiderEx), percent(report.setEx)],
  ];
  const cost = report.perQuestion;
  return `${[
    `model: ${report.model.id}${report.model.scripted ? " (scripted replay, not a language model)" : ""}`,
    formatTable(["category", "questions", "EX", "EX (Spider rule)", "set EX"], rows),
    `per question: ${cost.llmCalls.toFixed(1)} LLM calls, ${cost.inputTokens.toFixed(0)} input + ${cost.outputTokens.toFixed(0)} output tokens, ${cost.milliseconds.toFixed(0)} ms`,
    `engine or SQL failures: ${report.failures}`,
    ...readingLines(report),
    ...goldErrorLines(report),
    ...failureLines(report),
  ].join("\n")}\n`;
}
