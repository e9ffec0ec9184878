/** A progress NOTICE and when it reached the client, in milliseconds after the question was sent. */
export interface TimedNotice {
  readonly message: string;
  readonly milliseconds: number;
}

/** The value below which `fraction` of `values` lie (nearest rank); 0 for no values. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

/** p50 and p95 of `select 1` and of the questions, and the p50 overhead of a question over `select 1`. */
export function overheadPercentiles(select1: readonly number[], question: readonly number[]) {
  const select1Figures = { p50: percentile(select1, 0.5), p95: percentile(select1, 0.95) };
  const questionFigures = { p50: percentile(question, 0.5), p95: percentile(question, 0.95) };
  return { select1: select1Figures, question: questionFigures, overheadP50: questionFigures.p50 - select1Figures.p50 };
}

/**
 * A notice's kind, so the same step of different questions groups: a progress notice's label without its numbers
 * (`nlq: Read the schema: 12 tables, …` → `Read the schema`, `nlq: SQL candidate 2: ran, 4 rows` → `SQL candidate`),
 * any other notice's first word (`nlq: SELECT …` → `SELECT`).
 */
export function noticeKind(message: string): string {
  const text = message.replace(/^nlq: /, "");
  const label = text.split(": ")[0]!;
  if (label === text) return text.split(" ")[0] ?? text;
  return label.replace(/ \d+/g, "").trim();
}

/**
 * The median arrival time of each kind of progress notice over all questions, in the order they first arrive: where
 * the time of a question goes (each phase costs the difference to the previous line).
 */
export function phaseBreakdown(
  perQuestion: ReadonlyArray<readonly TimedNotice[]>,
): Array<{ notice: string; p50: number; questions: number }> {
  const byKind = new Map<string, number[]>();
  for (const notices of perQuestion) {
    const seen = new Set<string>();
    for (const notice of notices) {
      const kind = noticeKind(notice.message);
      if (seen.has(kind)) continue; // the first of a kind per question
      seen.add(kind);
      byKind.set(kind, [...(byKind.get(kind) ?? []), notice.milliseconds]);
    }
  }
  return [...byKind.entries()]
    .map(([notice, times]) => ({ notice, p50: percentile(times, 0.5), questions: times.length }))
    .sort((left, right) => left.p50 - right.p50);
}
