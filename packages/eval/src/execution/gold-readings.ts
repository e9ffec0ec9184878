import type { ComparableResult } from "@nlq/engine";
import type { EvaluationExecutor, EvaluationRun } from "./execute-for-evaluation";
import { executeGold, type GoldAnswer, scorePrediction } from "./gold-answer";
import { spiderOrderMatters, spiderResultsEqual, spiderRuleSql } from "./spider-result-rule";

/** A gold alternative as the official Spider rule runs it: DISTINCT removed, and whether its row order counts. */
export interface SpiderGoldAlternative {
  readonly sql: string;
  readonly orderMatters: boolean;
  readonly result: ComparableResult;
}

/**
 * One gold reading of a question, executed: AmbiQT's `query1` and `query2` are two readings; a plain question has one.
 * A reading may itself use defog's `{a,b}` / `;` notation (several alternatives of the same reading).
 */
export interface GoldReading {
  /** From 1, in the order the question file lists them. */
  readonly number: number;
  /** The reading's gold SQL as written. */
  readonly gold: string;
  /** Its alternatives that ran and those that failed, compared under nlq's rule. */
  readonly answer: GoldAnswer;
  /** The same alternatives under the official Spider rule (`spiderRuleSql`). */
  readonly spider: readonly SpiderGoldAlternative[];
}

/**
 * A run under the official Spider rule: the statement again with its DISTINCT removed when it has any, else the run
 * already made. When the statement without DISTINCT does not run, the statement as written stands.
 */
export async function runUnderSpiderRule(
  sql: string,
  run: EvaluationRun,
  execute: EvaluationExecutor,
  schema?: string,
): Promise<EvaluationRun> {
  if (!run.ok) return run;
  const stripped = spiderRuleSql(sql);
  if (stripped === sql) return run;
  const again = await execute(stripped, schema);
  return again.ok ? again : run;
}

/**
 * Executes every reading (`executeGold` each, so defog's notation expands) and each alternative again under the
 * Spider rule when that changes it. A `goldError` (the gold could not be translated) stands for every reading.
 * Needs `loadSqlParser()` to have settled.
 */
export async function executeGoldReadings(
  readings: readonly string[],
  schema: string | undefined,
  execute: EvaluationExecutor,
  goldError?: string,
): Promise<GoldReading[]> {
  const executed: GoldReading[] = [];
  for (const [index, gold] of readings.entries()) {
    const answer = await executeGold(gold, schema, execute, goldError);
    const spider: SpiderGoldAlternative[] = [];
    for (const alternative of answer.alternatives) {
      const stripped = spiderRuleSql(alternative.sql);
      const run = await runUnderSpiderRule(
        alternative.sql,
        { ok: true, result: alternative.result, columnNames: [] },
        execute,
        schema,
      );
      const result = run.ok ? run.result : alternative.result;
      spider.push({ sql: stripped, orderMatters: spiderOrderMatters(stripped), result });
    }
    executed.push({ number: index + 1, gold, answer, spider });
  }
  return executed;
}

/** A reading the engine offered: the answer itself (#1) or another of its interpretations, as run for scoring. */
export interface OfferedReading {
  /** The interpretation's number (1: the answer's own SQL and rows). */
  readonly number: number;
  readonly run: EvaluationRun;
}

/** Whether one gold reading was among what the engine offered. */
export interface ReadingMatch {
  /** The gold reading's number. */
  readonly number: number;
  /** False when none of its alternatives ran: it cannot be found, and the question's reading figures leave it out. */
  readonly scored: boolean;
  /** Offered readings whose result equals this gold's under nlq's rule (as EX compares), e.g. `[1]` or `[2]`. */
  readonly matchedBy: readonly number[];
}

/**
 * For each gold reading, which offered readings return its result (nlq's EX rule: `scorePrediction`). Pure.
 */
export function matchReadings(readings: readonly GoldReading[], offered: readonly OfferedReading[]): ReadingMatch[] {
  return readings.map((reading) => ({
    number: reading.number,
    scored: reading.answer.alternatives.length > 0,
    matchedBy: offered
      .filter((candidate) => scorePrediction(reading.answer, candidate.run).correct)
      .map((candidate) => candidate.number),
  }));
}

/** Whether the answer's own run, under the Spider rule, matches any alternative of any reading. Pure. */
export function spiderCorrect(readings: readonly GoldReading[], run: EvaluationRun): boolean {
  if (!run.ok) return false;
  return readings.some((reading) =>
    reading.spider.some((alternative) => spiderResultsEqual(alternative.result, run.result, alternative.orderMatters)),
  );
}

/** The reading figures of one question (`undefined` where they do not apply). */
export interface ReadingScore {
  /** Questions with several gold readings, every one of which ran: all of them were offered. */
  readonly bothFound?: boolean;
  /** … at least one of them was offered (the answer or another interpretation). */
  readonly eitherFound?: boolean;
  /**
   * Questions with one gold reading: the answer asked (`needsChoice`) or showed more than one interpretation, where
   * the question had only one meaning.
   */
  readonly falseAlarm?: boolean;
}

/** The figures of one question from its reading matches and what the answer showed. Pure. */
export function scoreReadings(
  matches: readonly ReadingMatch[],
  shown: { readonly interpretations: number; readonly needsChoice: boolean },
  scored: boolean,
): ReadingScore {
  if (matches.length === 1) return scored ? { falseAlarm: shown.needsChoice || shown.interpretations > 1 } : {};
  if (matches.length < 2 || !matches.every((match) => match.scored)) return {};
  return {
    bothFound: matches.every((match) => match.matchedBy.length > 0),
    eitherFound: matches.some((match) => match.matchedBy.length > 0),
  };
}
