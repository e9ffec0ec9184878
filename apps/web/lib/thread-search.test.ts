import { describe, expect, it } from "vitest";
import { searchThreads } from "./thread-search";

const customers = {
  title: "how many customers are there?",
  questions: ["how many customers are there?", "and which are from Berlin?"],
};
const revenue = { title: "Revenue review", questions: ["show the monthly revenue trend", "by store?"] };
const old = { title: "From an older server" };

describe("searchThreads", () => {
  it("keeps every thread, in order, for an empty search", () => {
    expect(searchThreads([customers, revenue, old], "  ")).toEqual([
      { thread: customers },
      { thread: revenue },
      { thread: old },
    ]);
  });

  it("matches titles case-insensitively", () => {
    expect(searchThreads([customers, revenue], " REVENUE ")).toEqual([{ thread: revenue }]);
  });

  it("matches a later question of a thread, and says which", () => {
    expect(searchThreads([customers, revenue, old], "berlin")).toEqual([
      { thread: customers, matchedQuestion: "and which are from Berlin?" },
    ]);
    expect(searchThreads([customers, revenue], "By Store")).toEqual([
      { thread: revenue, matchedQuestion: "by store?" },
    ]);
  });

  it("finds nothing when neither title nor question holds the text", () => {
    expect(searchThreads([customers, revenue, old], "bounce rate")).toEqual([]);
  });
});
