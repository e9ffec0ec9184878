#!/usr/bin/env node
// The README's test command: every vitest project, then the Playwright end-to-end suite,
// closing with one line CI reads: "tests: N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const directory = mkdtempSync(join(tmpdir(), "nlq-tests-"));
const vitestSummary = join(directory, "vitest.json");
const playwrightSummary = join(directory, "playwright.json");
const totals = { passed: 0, failed: 0, skipped: 0 };

const vitest = spawnSync("npx", ["vitest", "run"], {
  stdio: "inherit",
  env: { ...process.env, NLQ_TEST_SUMMARY_FILE: vitestSummary },
});
if (existsSync(vitestSummary)) {
  const counts = JSON.parse(readFileSync(vitestSummary, "utf8"));
  for (const key of Object.keys(totals)) totals[key] += counts[key];
} else if (vitest.status !== 0) totals.failed += 1;

const skipEndToEnd = process.argv.includes("--unit");
let playwrightStatus = 0;
if (!skipEndToEnd) {
  const playwright = spawnSync("npx", ["playwright", "test", "-c", "e2e/playwright.config.ts"], {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightSummary, NLQ_PLAYWRIGHT_JSON: playwrightSummary },
  });
  playwrightStatus = playwright.status ?? 1;
  if (existsSync(playwrightSummary)) {
    const report = JSON.parse(readFileSync(playwrightSummary, "utf8"));
    totals.passed += report.stats?.expected ?? 0;
    // Errors outside any test (a web server that did not start) fail the run without failing a test: count them.
    const runErrors = Math.max(report.errors?.length ?? 0, playwrightStatus !== 0 ? 1 : 0);
    const testFailures = (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
    totals.failed += testFailures > 0 ? testFailures : runErrors;
    totals.skipped += report.stats?.skipped ?? 0;
  } else if (playwrightStatus !== 0) totals.failed += 1;
}

console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(vitest.status === 0 && playwrightStatus === 0 && totals.failed === 0 ? 0 : 1);
