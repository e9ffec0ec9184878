import { beforeAll, describe, expect, it } from "vitest";
import { clusterCandidates } from "../selection/cluster-candidates";
import { loadSqlParser } from "../sql/validate-sql";
import { executedCandidate } from "../testing/executed-candidate";
import { buildInterpretations } from "./build-interpretations";

beforeAll(async () => {
  await loadSqlParser();
});

const rows = (count: number) => Array.from({ length: count }, (_, index) => [String(index)]);

describe("buildInterpretations", () => {
  it("lists no interpretation and asks nothing when the candidates agree", async () => {
    const clusters = await clusterCandidates([
      executedCandidate(0, "SELECT 1", [["1"]]),
      executedCandidate(1, "SELECT 1 AS one", [["1"]]),
    ]);
    expect(buildInterpretations({ clusters, chosenCluster: 0, written: 2, askWhenSupportBelow: 0.5 })).toEqual({
      interpretations: [],
      needsChoice: false,
      choiceBasis: "the candidates that ran returned one result",
      readingsDiffer: false,
    });
  });

  it("lists every cluster, the chosen first, with support, share, at most five rows and a computed difference", async () => {
    const clusters = await clusterCandidates([
      executedCandidate(0, "SELECT n FROM t WHERE k = 1", rows(7)),
      executedCandidate(1, "SELECT n FROM t", [["9"]]),
      executedCandidate(2, "SELECT n FROM t WHERE k = 1 ", rows(7)),
    ]);
    const choice = buildInterpretations({ clusters, chosenCluster: 0, written: 4, askWhenSupportBelow: 0.5 });
    expect(choice.interpretations).toEqual([
      {
        number: 1,
        chosen: true,
        sql: "SELECT n FROM t WHERE k = 1",
        support: 2,
        share: 0.5,
        columns: ["c0"],
        rows: rows(5),
        rowCount: 7,
        truncated: false,
        difference: "the chosen reading",
      },
      {
        number: 2,
        chosen: false,
        sql: "SELECT n FROM t",
        support: 1,
        share: 0.25,
        columns: ["c0"],
        rows: [["9"]],
        rowCount: 1,
        truncated: false,
        difference: "drops the filter k = 1; 1 row instead of 7 rows",
      },
    ]);
    // 2 of 4 written (one failed) is not below 0.5, and no other reading has as much support.
    expect(choice.needsChoice).toBe(false);
    expect(choice.choiceBasis).toBe(
      "the chosen reading has 2 of 4 candidates (50%), at least NLQ_ASK_WHEN_SUPPORT_BELOW=0.5",
    );
  });

  it("asks when the chosen reading's share is below the threshold, or another reading has as much support", async () => {
    const threeWays = await clusterCandidates([
      executedCandidate(0, "SELECT 1", [["1"]]),
      executedCandidate(1, "SELECT 2", [["2"]]),
      executedCandidate(2, "SELECT 3", [["3"]]),
    ]);
    const asked = buildInterpretations({ clusters: threeWays, chosenCluster: 0, written: 3, askWhenSupportBelow: 0.5 });
    expect(asked.interpretations.map((reading) => [reading.number, reading.sql])).toEqual([
      [1, "SELECT 1"],
      [2, "SELECT 2"],
      [3, "SELECT 3"],
    ]);
    expect(asked).toMatchObject({
      needsChoice: true,
      choiceBasis: "the chosen reading has 1 of 3 candidates (33%), below NLQ_ASK_WHEN_SUPPORT_BELOW=0.5",
    });
    // A tie is no majority even under a low threshold.
    const tie = buildInterpretations({ clusters: threeWays, chosenCluster: 0, written: 3, askWhenSupportBelow: 0.2 });
    expect(tie).toMatchObject({ needsChoice: true });
    expect(tie.choiceBasis).toContain("reading #2 has as much support");
    // 0 never asks.
    expect(
      buildInterpretations({ clusters: threeWays, chosenCluster: 0, written: 3, askWhenSupportBelow: 0 }),
    ).toMatchObject({ needsChoice: false, choiceBasis: "asking is switched off (NLQ_ASK_WHEN_SUPPORT_BELOW=0)" });
  });

  it("puts a chosen cluster that is not the largest first (a selector's choice) and asks: it is outvoted", async () => {
    const clusters = await clusterCandidates([
      executedCandidate(0, "SELECT 1", [["1"]]),
      executedCandidate(1, "SELECT 2", [["2"]]),
      executedCandidate(2, "SELECT 2 AS two", [["2"]]),
    ]);
    const choice = buildInterpretations({ clusters, chosenCluster: 1, written: 3, askWhenSupportBelow: 0.3 });
    expect(choice.interpretations.map((reading) => [reading.sql, reading.support, reading.chosen])).toEqual([
      ["SELECT 1", 1, true],
      ["SELECT 2", 2, false],
    ]);
    expect(choice.needsChoice).toBe(true);
  });
});
