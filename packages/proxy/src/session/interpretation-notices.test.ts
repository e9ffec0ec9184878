import type { Answer, Interpretation } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { Parser } from "pg-protocol/dist/parser";
import { describe, expect, it } from "vitest";
import { QuestionMarker } from "../question/question-marker";
import {
  encodeFollowedConfirmationNotices,
  encodeInterpretationNotices,
  encodeKnowledgeUsedNotices,
} from "./interpretation-notices";

const reading = (number: number, sql: string, difference: string): Interpretation => ({
  number,
  chosen: number === 1,
  sql,
  support: 1,
  share: 0.5,
  columns: ["n"],
  rows: [["1"]],
  rowCount: 1,
  truncated: false,
  difference,
});

const answer: Answer = {
  question: "how many?",
  sql: "SELECT count(*) AS n FROM orders",
  result: { fields: [], rows: [], command: "SELECT 0" },
  truncated: false,
  selection: { ...singleCandidateSelection, candidates: 2 },
  model: { id: "test:model", scripted: false },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
  interpretations: [
    reading(1, "SELECT count(*) AS n FROM orders", "the chosen reading"),
    reading(
      2,
      "SELECT count(DISTINCT customer) AS n FROM orders",
      "returns count(DISTINCT customer) instead of count(*)",
    ),
  ],
  needsChoice: true,
  choiceBasis: "a tie",
};

function notices(buffers: Buffer[]): string[] {
  const lines: string[] = [];
  new Parser().parse(Buffer.concat(buffers), (message) => {
    const notice = message as unknown as { message: string; detail?: string };
    lines.push(`${notice.message} | ${notice.detail ?? ""}`);
  });
  return lines;
}

describe("encodeInterpretationNotices", () => {
  it("lists each reading with its support, difference and SQL, and how to pick with the connection's marker", () => {
    expect(notices(encodeInterpretationNotices(answer, new QuestionMarker("ask:")))).toEqual([
      "nlq: which did you mean? the question has 2 readings whose results differ; these rows are #1's, run /* ask#2 */; to see #2's instead (/* ask#2 remember */; also keeps it from now on) | a tie",
      "nlq: #1 (shown), 1 of 2 candidates: the chosen reading | SELECT count(*) AS n FROM orders",
      "nlq: #2, 1 of 2 candidates: returns count(DISTINCT customer) instead of count(*) | SELECT count(DISTINCT customer) AS n FROM orders",
    ]);
  });

  it("sends nothing for an answer with fewer than two readings", () => {
    expect(encodeInterpretationNotices({ ...answer, interpretations: undefined })).toEqual([]);
    expect(encodeInterpretationNotices({ ...answer, interpretations: answer.interpretations!.slice(0, 1) })).toEqual(
      [],
    );
  });
});

describe("encodeFollowedConfirmationNotices", () => {
  it("says which confirmed reading the answer followed, whose and when, and what it set aside", () => {
    const followed: Answer = {
      ...answer,
      followedConfirmations: [
        {
          entryId: "k1",
          phrase: "name",
          chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
          setAside: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
          confirmedBy: "an administrator",
          confirmedAt: "2026-11-30T08:00:00.000Z",
        },
      ],
    };
    expect(notices(encodeFollowedConfirmationNotices(followed))).toEqual([
      "nlq: followed a confirmed reading: «name» means singer.performer_name (confirmed by an administrator, 2026-11-30) | not singer.artist_name",
    ]);
    expect(encodeFollowedConfirmationNotices(answer)).toEqual([]);
  });
});

describe("encodeKnowledgeUsedNotices", () => {
  it("says which definitions reached the prompts, and sends nothing when none did", () => {
    const used: Answer = {
      ...answer,
      knowledgeUsed: [
        { id: "k1", kind: "metric", name: "Revenue" },
        { id: "k2", kind: "description", name: "analytics.orders.is_test" },
      ],
    };
    expect(notices(encodeKnowledgeUsedNotices(used))).toEqual([
      "nlq: used 2 definitions: metric «Revenue», description «analytics.orders.is_test» | ",
    ]);
    expect(encodeKnowledgeUsedNotices(answer)).toEqual([]);
  });
});
