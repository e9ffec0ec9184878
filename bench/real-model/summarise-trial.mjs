#!/usr/bin/env node
// Sums `nlq eval --json` reports of one trial setting (run-spider-trial.sh writes one per question for `single`, one
// for `warehouse`): questions scored, EX, engine failures, model calls per question, and each question's outcome.
//   node bench/real-model/summarise-trial.mjs <report.json>…
import { readFileSync } from "node:fs";

let questions = 0,
  correct = 0,
  failures = 0,
  calls = 0,
  goldErrors = 0;
const rows = [];
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  questions += report.questions;
  correct += Math.round(report.ex * report.questions);
  failures += report.failures;
  calls += report.perQuestion.llmCalls * report.questions;
  goldErrors += report.goldErrors.length;
  for (const result of report.results ?? []) {
    rows.push(
      `${result.id}\t${result.correct ? "correct" : result.error ? `failed (${result.error.class ?? ""} ${result.error.sqlstate ?? ""} in ${result.error.failedIn ?? "?"})` : "wrong"}\t${result.calls} calls\t${result.chosenBy ?? ""}`,
    );
  }
}
const share = (part) => (questions === 0 ? "n/a" : `${((100 * part) / questions).toFixed(1)} %`);
console.log(
  `questions scored ${questions}; EX ${share(correct)} (${correct}/${questions}); engine failures ${failures}; ` +
    `model calls per question ${(calls / Math.max(questions, 1)).toFixed(1)}; gold does not run ${goldErrors}`,
);
for (const row of rows) console.log(row);
