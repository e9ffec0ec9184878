import { describe, expect, it } from "vitest";
import { runTypeScriptRules } from "../../native/test/relay-rules-typescript";
import { chunkings, fuzzStream, loadRelayRuleVectors } from "../../native/test/relay-rules-vectors";
import { detectQuestion } from "../question/detect-question";
import { headMayAsk } from "../question/head-may-ask";
import { QuestionMarker } from "../question/question-marker";

/**
 * The TypeScript side of the relay's rules, checked against the table the C relay is checked against too
 * (packages/proxy/native/test/relay-rules.vectors.json; the C side: `npm run test:native`).
 */
const vectors = loadRelayRuleVectors();

describe("the marker pre-check (QuestionMarker.mayOccurInBytes, the twin of the relay's marker_may_occur)", () => {
  it.each(vectors.markers.map((vector) => [vector.name, vector] as const))("%s", (_name, vector) => {
    const marker = new QuestionMarker(vector.marker ?? "nl:");
    const bytes = Buffer.from(vector.text, "utf8");
    expect(marker.mayOccurInBytes(bytes, 0)).toBe(vector.mayAsk);
    // The string twin (a regular expression) is as strict or stricter: a space of the marker takes one or more there.
    if (marker.mayOccurIn(vector.text)) expect(vector.mayAsk).toBe(true);
    // After a header-sized prefix, as the router looks at a message.
    expect(marker.mayOccurInBytes(Buffer.concat([Buffer.from("Q\0\0\0\0"), bytes]), 5)).toBe(vector.mayAsk);
    if (vector.asks !== undefined) {
      expect(detectQuestion(vector.text, { marker }).kind !== "sql").toBe(vector.asks);
      // The pre-check is conservative: it never says "no" where the text asks.
      if (vector.asks) expect(vector.mayAsk).toBe(true);
    }
  });
});

describe("the head of a large Query (headMayAsk)", () => {
  it.each(vectors.heads.map((vector) => [vector.name, vector] as const))("%s", (_name, vector) => {
    const marker = new QuestionMarker(vector.marker ?? "nl:");
    expect(marker.mayOccurInBytes(Buffer.from(vector.head, "utf8"), 0)).toBe(vector.mayAsk);
    expect(headMayAsk(vector.head, marker)).toBe(vector.headAsks);
    if (vector.headAsks) expect(vector.mayAsk).toBe(true);
  });
});

describe("the stream rules (framing, ReadyForQuery accounting, COPY, hand-back) through the TypeScript router", () => {
  it.each(vectors.streams.map((vector) => [vector.name, vector] as const))("%s", (_name, vector) => {
    for (const { strategy, cuts } of vector.chunkings) {
      const outcome = runTypeScriptRules(vector, cuts);
      const { routed, ...decision } = outcome;
      const expected = vector.expected;
      if (expected.stop === "protocol") {
        // JavaScript ends the connection at a protocol error: what it passed on before the bad header within the same
        // chunk may be less than the relay forwards, never more.
        const side = vector.steps.at(-1)!.side;
        expect(decision.forwarded[side], strategy).toBeLessThanOrEqual(expected.forwarded[side]);
        expect({ ...decision, forwarded: 0, held: 0 }, strategy).toEqual({ ...expected, forwarded: 0, held: 0 });
      } else {
        expect(decision, strategy).toEqual(expected);
      }
      // What the router then does with a handed-back message, where the table pins it.
      if (vector.routed !== undefined) expect(routed, strategy).toBe(vector.routed);
    }
  });
});

describe("random streams through the TypeScript rules (the C test checks the relay against the same outcomes)", () => {
  it("frame to the same outcome whatever the cuts", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const stream = fuzzStream(seed);
      const whole = runTypeScriptRules(
        stream,
        stream.steps.map(() => []),
        { route: false },
      );
      for (const { strategy, cuts } of chunkings(stream.steps, seed)) {
        const outcome = runTypeScriptRules(stream, cuts, { route: false });
        if (whole.stop === "protocol") expect(outcome.stop, `${stream.name}, ${strategy}`).toBe("protocol");
        else expect(outcome, `${stream.name}, ${strategy}`).toEqual(whole);
      }
    }
  });
});
