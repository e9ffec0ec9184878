import type { ComparableResult } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import type { EvaluationRun } from "./execute-for-evaluation";
import { type GoldReading, matchReadings, scoreReadings, spiderCorrect } from "./gold-readings";
import { readingFigures } from "./reading-figures";

const int4 = 23;
const text = 25;
const rows = (columnTypes: number[], values: string[][]): ComparableResult => ({ columnTypes, rows: values });
const ok = (result: ComparableResult): EvaluationRun => ({ ok: true, result, columnNames: [] });

/** A reading whose one alternative ran with `result` (the Spider-rule copy the same). */
function reading(number: number, result: ComparableResult, sql = `SELECT ${number}`): GoldReading {
  return {
    number,
    gold: sql,
    answer: { alternatives: [{ sql, ordered: false, result }], errors: [] },
    spider: [{ sql, orderMatters: false, result }],
  };
}
const failedReading = (number: number): GoldReading => ({
  number,
  gold: "SELECT broken",
  answer: { alternatives: [], errors: [{ sql: "SELECT broken", error: "no" }] },
  spider: [],
});

const yearsOld = rows([text, int4], [["Joe", "52"]]);
const birthYear = rows([text, int4], [["Joe", "1971"]]);
const somethingElse = rows([text, int4], [["Rose", "41"]]);

describe("matchReadings", () => {
  it("names, per gold reading, the offered readings that return its result", () => {
    const matches = matchReadings(
      [reading(1, yearsOld), reading(2, birthYear)],
      [
        { number: 1, run: ok(birthYear) },
        { number: 2, run: ok(somethingElse) },
        { number: 3, run: ok(yearsOld) },
      ],
    );
    expect(matches).toEqual([
      { number: 1, scored: true, matchedBy: [3] },
      { number: 2, scored: true, matchedBy: [1] },
    ]);
  });

  it("never matches a failed run, and marks a reading none of whose alternatives ran", () => {
    const matches = matchReadings(
      [reading(1, yearsOld), failedReading(2)],
      [{ number: 1, run: { ok: false, error: "boom" } }],
    );
    expect(matches).toEqual([
      { number: 1, scored: true, matchedBy: [] },
      { number: 2, scored: false, matchedBy: [] },
    ]);
  });
});

describe("scoreReadings", () => {
  const shownNothing = { interpretations: 0, needsChoice: false };

  it("finds both readings only when each was offered, either when one was", () => {
    const both = [
      { number: 1, scored: true, matchedBy: [1] },
      { number: 2, scored: true, matchedBy: [2] },
    ];
    const one = [
      { number: 1, scored: true, matchedBy: [1] },
      { number: 2, scored: true, matchedBy: [] },
    ];
    const none = [
      { number: 1, scored: true, matchedBy: [] },
      { number: 2, scored: true, matchedBy: [] },
    ];
    const shown = { interpretations: 2, needsChoice: true };
    expect(scoreReadings(both, shown, true)).toEqual({ bothFound: true, eitherFound: true });
    expect(scoreReadings(one, shown, true)).toEqual({ bothFound: false, eitherFound: true });
    expect(scoreReadings(none, shownNothing, true)).toEqual({ bothFound: false, eitherFound: false });
  });

  it("leaves the reading figures out when a reading's gold did not run", () => {
    const matches = [
      { number: 1, scored: true, matchedBy: [1] },
      { number: 2, scored: false, matchedBy: [] },
    ];
    expect(scoreReadings(matches, shownNothing, true)).toEqual({});
  });

  it("counts a false alarm on one reading when the answer asked or showed several interpretations", () => {
    const single = [{ number: 1, scored: true, matchedBy: [1] }];
    expect(scoreReadings(single, shownNothing, true)).toEqual({ falseAlarm: false });
    expect(scoreReadings(single, { interpretations: 2, needsChoice: false }, true)).toEqual({ falseAlarm: true });
    expect(scoreReadings(single, { interpretations: 0, needsChoice: true }, true)).toEqual({ falseAlarm: true });
    expect(scoreReadings(single, { interpretations: 2, needsChoice: true }, false)).toEqual({});
  });
});

describe("spiderCorrect", () => {
  it("matches the answer against any reading under the Spider rule (columns in any order)", () => {
    const swapped = rows([int4, text], [["1971", "Joe"]]);
    expect(spiderCorrect([reading(1, yearsOld), reading(2, birthYear)], ok(swapped))).toBe(true);
    expect(spiderCorrect([reading(1, yearsOld)], ok(swapped))).toBe(false);
    expect(spiderCorrect([reading(1, yearsOld)], { ok: false, error: "no" })).toBe(false);
  });
});

describe("readingFigures", () => {
  it("sums both-found, either-found and first-reading matches over questions with several readings, false alarms over the rest", () => {
    const figures = readingFigures([
      { correct: true, bothFound: true, eitherFound: true, interpretations: 2, needsChoice: true },
      { correct: false, bothFound: false, eitherFound: true, interpretations: 2, needsChoice: false },
      { correct: false, bothFound: false, eitherFound: false, interpretations: 0, needsChoice: false },
      { correct: true, falseAlarm: false, interpretations: 0, needsChoice: false },
      { correct: true, falseAlarm: true, interpretations: 3, needsChoice: true },
      // A question whose readings did not all run: in neither group.
      { correct: false, interpretations: 0, needsChoice: false },
    ]);
    expect(figures.several).toMatchObject({
      questions: 3,
      bothFound: 1,
      eitherFound: 2,
      firstReadingMatches: 1,
      withInterpretations: 2,
      needsChoice: 1,
      meanInterpretations: 4 / 3,
    });
    expect(figures.several.bothFoundRate).toBeCloseTo(1 / 3);
    expect(figures.single).toMatchObject({
      questions: 2,
      falseAlarms: 1,
      falseAlarmRate: 0.5,
      withInterpretations: 1,
      needsChoice: 1,
    });
  });

  it("gives rates of 0 over no questions", () => {
    expect(readingFigures([]).single.falseAlarmRate).toBe(0);
  });
});
