/**
 * The tests of a pg_regress schedule (`src/test/regress/parallel_schedule`), in order: each `test:` line names one or
 * more tests (a parallel group, run here one after another in the order written); comments (`#`), blank lines and
 * `ignore:` lines (older schedules: a test whose failure pg_regress ignores, run by its `test:` line) are skipped. Throws on any other line, so a misread schedule is not a silently shorter run.
 */
export function scheduledTests(schedule: string): string[] {
  const tests: string[] = [];
  for (const [index, raw] of schedule.split("\n").entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "" || line.startsWith("ignore:")) continue;
    const match = /^test:\s*(.+)$/.exec(line);
    if (match === null) throw new Error(`schedule line ${index + 1} is not a test: line: ${JSON.stringify(raw)}`);
    tests.push(...match[1]!.split(/\s+/));
  }
  return tests;
}
