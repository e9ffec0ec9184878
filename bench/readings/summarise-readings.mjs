#!/usr/bin/env node
// The issue 26 summary of one or more `nlq eval --questions … --json` reports (run-readings-trial.sh writes them):
// both readings found, either found, interpretations shown and needsChoice on questions with several gold readings;
// false alarms on questions with one; EX under nlq's and the Spider rule; model calls per question. With several
// reports, the single-reading questions of all of them are summed as well (the Spider and defog samples together).
//   node bench/readings/summarise-readings.mjs <report.json>…
import { readFileSync } from "node:fs";

const percent = (count, total) => (total === 0 ? "n/a" : `${((100 * count) / total).toFixed(1)} %`);
const share = (count, total) => `${count}/${total} (${percent(count, total)})`;

function doubtLines(figures) {
  return `more than one interpretation shown ${share(figures.withInterpretations, figures.questions)}, needsChoice ${share(figures.needsChoice, figures.questions)}, ${figures.meanInterpretations.toFixed(2)} interpretations per answer`;
}

const single = { questions: 0, falseAlarms: 0, correct: 0, spiderCorrect: 0, calls: 0, scored: 0 };
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: summarise-readings.mjs <report.json>…");
  process.exit(2);
}
for (const file of files) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  const { several, single: one } = report.readings;
  const scored = report.results.filter((result) => result.scored);
  console.log(
    `${file}: ${report.questions} questions scored; model ${report.model.id}${report.model.scripted ? " (scripted replay, not a language model)" : ""}`,
  );
  if (several.questions > 0) {
    console.log(
      `  several readings (${several.questions} questions): both found ${share(several.bothFound, several.questions)} [issue 26 target: ≥ 60 %], either found ${share(several.eitherFound, several.questions)}, the answer's own result a reading ${share(several.firstReadingMatches, several.questions)}`,
    );
    console.log(`    ${doubtLines(several)}`);
  }
  if (one.questions > 0) {
    console.log(
      `  one reading (${one.questions} questions): false alarms ${share(one.falseAlarms, one.questions)} [target: ≤ 10 %]`,
    );
    console.log(`    ${doubtLines(one)}`);
  }
  const correct = scored.filter((result) => result.correct).length;
  const spiderCorrect = scored.filter((result) => result.spiderCorrect).length;
  const setCorrect = scored.filter((result) => result.setCorrect).length;
  console.log(
    `  EX ${share(correct, scored.length)} (nlq's rule), ${share(spiderCorrect, scored.length)} (Spider rule), set EX ${share(setCorrect, scored.length)}`,
  );
  console.log(
    `  model calls per question ${report.perQuestion.llmCalls.toFixed(1)}; engine or SQL failures ${report.failures}; gold errors ${report.goldErrors.length}`,
  );
  for (const [category, figure] of Object.entries(report.categories)) {
    const { several: many, single: alone } = figure.readings;
    const parts = [`EX ${percent(figure.ex * figure.questions, figure.questions)}`];
    if (many.questions > 0) parts.push(`both found ${share(many.bothFound, many.questions)}`);
    if (alone.questions > 0) parts.push(`false alarms ${share(alone.falseAlarms, alone.questions)}`);
    console.log(`    ${category} (${figure.questions}): ${parts.join(", ")}`);
  }
  single.questions += one.questions;
  single.falseAlarms += one.falseAlarms;
  const alone = scored.filter((result) => result.goldReadings === 1);
  single.scored += alone.length;
  single.correct += alone.filter((result) => result.correct).length;
  single.spiderCorrect += alone.filter((result) => result.spiderCorrect).length;
  single.calls += alone.reduce((sum, result) => sum + result.calls, 0);
}
if (files.length > 1 && single.questions > 0) {
  console.log(
    `all single-reading questions (${single.questions}): false alarms ${share(single.falseAlarms, single.questions)}, EX ${share(single.correct, single.scored)} (nlq's rule), ${share(single.spiderCorrect, single.scored)} (Spider rule), ${(single.calls / Math.max(single.scored, 1)).toFixed(1)} model calls per question`,
  );
}
