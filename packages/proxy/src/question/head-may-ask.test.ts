import { describe, expect, it } from "vitest";
import { detectQuestion } from "./detect-question";
import { headMayAsk } from "./head-may-ask";
import { QuestionMarker } from "./question-marker";

const marker = new QuestionMarker("nl:");

describe("headMayAsk (the first bytes of a Query too large to hold)", () => {
  it.each([
    "create table t(x int); -- NL: Dutch rows follow\ninsert into t values (1),",
    "-- NL: a note\rselect 1, ",
    "select 1 /* nl: an annotation beside SQL */, ",
    "select '/* nl: in a string */', ",
    "\v/* nl: after a vertical tab */ ",
    "select 1; -- nl: beside SQL\n",
  ])("streams %j: no question can be in it", (head) => {
    expect(headMayAsk(head, marker)).toBe(false);
  });

  it.each([
    "/* nl: how many rows? */ ",
    "select 1; /* nl: how many rows? */; select ",
    "-- nl: how many rows? ",
    "select 1; /* nl: cut off at the head's end",
    "-- a note\n/* nl: q */",
  ])("refuses %j: a question may be in it", (head) => {
    expect(headMayAsk(head, marker)).toBe(true);
  });

  it("never streams a head holding the marker that detectQuestion, seeing the whole text, would answer or split", () => {
    const pieces = ["select 1", "; ", "/* nl: q */", "-- nl: r\n", "-- c\r", "'x'", " ", "\n", "/* c */"];
    let seed = 5;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let index = 0; index < 3_000; index++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 6) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
      if (detectQuestion(text, { marker }).kind === "sql") continue;
      // Every head that holds each marker (the asking one among them), cut anywhere after, must be refused.
      for (let cut = text.lastIndexOf("nl:") + 3; cut <= text.length; cut++) {
        expect(headMayAsk(text.slice(0, cut), marker), JSON.stringify([text, cut])).toBe(true);
      }
    }
  });
});
