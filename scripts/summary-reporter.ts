import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Vitest reporter that counts test cases and writes them to `NLQ_TEST_SUMMARY_FILE` (when set),
 * so `scripts/run-tests.mjs` can print one closing line for vitest and Playwright together.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      if (testModule.state() === "failed" && [...testModule.children.allTests()].length === 0) counts.failed += 1;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === "passed") counts.passed += 1;
        else if (state === "failed") counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    const file = process.env.NLQ_TEST_SUMMARY_FILE;
    if (file) writeFileSync(file, JSON.stringify(counts));
  }
}
