import { describe, expect, it } from "vitest";
import { executedCandidate as candidate } from "../testing/executed-candidate";
import { clusterCandidates } from "./cluster-candidates";

const float8 = 701;
const text = 25;
const indexes = (clusters: Awaited<ReturnType<typeof clusterCandidates>>) =>
  clusters.map((cluster) => cluster.members.map((member) => member.index));

describe("clusterCandidates", () => {
  it("groups equal row multisets, largest cluster first, representative = first member", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT a FROM t", [["1"], ["2"]]),
      candidate(1, "SELECT b FROM t", [["3"]]),
      candidate(2, "SELECT a FROM t WHERE true", [["2"], ["1"]]),
      candidate(3, "SELECT a FROM u", [["1"], ["2"], ["2"]]),
      candidate(4, "SELECT 3", [["3"]]),
      candidate(5, "SELECT a FROM v", [["2"], ["1"]]),
    ]);
    expect(indexes(clusters)).toEqual([[0, 2, 5], [1, 4], [3]]);
    expect(clusters.map((cluster) => cluster.representative.index)).toEqual([0, 1, 3]);
  });

  it("breaks size ties by the first member's index", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT 1", [["1"]]),
      candidate(1, "SELECT 2", [["2"]]),
      candidate(2, "SELECT 2", [["2"]]),
      candidate(3, "SELECT 1", [["1"]]),
    ]);
    expect(indexes(clusters)).toEqual([
      [0, 3],
      [1, 2],
    ]);
  });

  it("compares order only when both candidates order at their top level", async () => {
    const ascending = candidate(0, "SELECT a FROM t ORDER BY a", [["1"], ["2"]]);
    const descending = candidate(1, "SELECT a FROM t ORDER BY a DESC", [["2"], ["1"]]);
    const unordered = candidate(2, "SELECT a FROM (SELECT a FROM t ORDER BY a DESC) s", [["2"], ["1"]]);
    expect(indexes(await clusterCandidates([ascending, descending]))).toEqual([[0], [1]]);
    expect(indexes(await clusterCandidates([ascending, unordered]))).toEqual([[0, 2]]);
    // Membership is decided against the representative: the unordered one matches the ascending one first.
    expect(indexes(await clusterCandidates([ascending, descending, unordered]))).toEqual([[0, 2], [1]]);
  });

  it("treats NULL as equal to NULL and different from the text 'NULL' or an empty string", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT x", [[null], ["a"]], { columnTypes: [text] }),
      candidate(1, "SELECT y", [["a"], [null]], { columnTypes: [text] }),
      candidate(2, "SELECT z", [["NULL"], ["a"]], { columnTypes: [text] }),
      candidate(3, "SELECT w", [[""], ["a"]], { columnTypes: [text] }),
    ]);
    expect(indexes(clusters)).toEqual([[0, 1], [2], [3]]);
  });

  it("compares numbers within 1e-6 relative tolerance, across numeric types, ignoring column names", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT avg(p)", [["0.3333333333"]], { columnTypes: [float8] }),
      candidate(1, "SELECT round(avg(p), 7)", [["0.3333333"]], { columnTypes: [1700] }),
      candidate(2, "SELECT round(avg(p), 2)", [["0.33"]], { columnTypes: [1700] }),
      candidate(3, "SELECT avg(p)::text", [["0.3333333"]], { columnTypes: [text] }),
    ]);
    expect(indexes(clusters)).toEqual([[0, 1], [2], [3]]);
  });

  it("keeps duplicates apart from distinct rows, and different column counts apart", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT a FROM t", [["1"], ["1"]]),
      candidate(1, "SELECT DISTINCT a FROM t", [["1"]]),
      candidate(2, "SELECT a, a FROM t", [["1", "1"]]),
      candidate(3, "SELECT a FROM t WHERE a > 5", []),
      candidate(4, "SELECT a FROM t WHERE a > 9", []),
    ]);
    // The two empty results come from different queries: no agreement (see below).
    expect(indexes(clusters)).toEqual([[0], [1], [2], [3], [4]]);
  });

  it("clusters results with no rows only when the queries normalise to the same statement", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT name FROM customers WHERE city = 'Paris'", []),
      candidate(1, "SELECT name FROM customers WHERE country = 'Paris'", []),
      candidate(2, "select name from customers where city = 'Paris';", []),
      candidate(3, "SELECT name FROM orders WHERE status = 'lost'", []),
    ]);
    // Unrelated queries that all find nothing are no agreement: only the same query (0 and 2) clusters.
    expect(indexes(clusters)).toEqual([[0, 2], [1], [3]]);
  });

  it("never clusters a result cut by a cap with a complete one", async () => {
    const clusters = await clusterCandidates([
      candidate(0, "SELECT a FROM t", [["1"]], { truncated: true }),
      candidate(1, "SELECT a FROM t LIMIT 1", [["1"]]),
      candidate(2, "SELECT a FROM t", [["1"]], { truncated: true }),
    ]);
    expect(indexes(clusters)).toEqual([[0, 2], [1]]);
  });
});
