import { describe, expect, it } from "vitest";
import {
  loadRelayRuleVectors,
  type RelayState,
  type RoutedKind,
  type Side,
  type StopKind,
  type StreamOutcome,
  type StreamVector,
} from "../../native/test/relay-rules-vectors";
import { ClientMessageRouter } from "../connection/client-message-router";
import { PendingReady } from "../connection/pending-ready";
import { LARGE_CLIENT_MESSAGE_BYTES } from "../connection/question-errors";
import { MessageType } from "../protocol/frontend-messages";
import { type FramedSegment, type LargeMessageFate, MessageFramer } from "../protocol/message-framer";
import { ProtocolViolationError } from "../protocol/protocol-error";
import { readReadyStatus } from "../protocol/ready-for-query";
import { detectQuestion } from "../question/detect-question";
import { headMayAsk } from "../question/head-may-ask";
import { QuestionMarker } from "../question/question-marker";

/**
 * The TypeScript side of the relay's rules, checked against the table the C relay is checked against too
 * (apps/proxy/native/test/relay-rules.vectors.json; the C side: `npm run test:native`).
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

interface TypeScriptOutcome extends StreamOutcome {
  readonly routed?: RoutedKind;
}

/**
 * Feeds a vector's steps, cut as `cuts` says, through the TypeScript rules the way ProxyConnection composes them while
 * a connection is ready: MessageFramer per direction, ClientMessageRouter (its `inspects`, `route`, `routeLarge`),
 * PendingReady, CopyInState and the ReadyForQuery status. Where the relay would hand the connection back (a Query or
 * Parse that passes the marker pre-check), it stops, and notes what the router then does with that message.
 */
function runTypeScript(vector: StreamVector, cuts: ReadonlyArray<readonly number[]>): TypeScriptOutcome {
  const router = new ClientMessageRouter(vector.marker);
  const pendingReady = new PendingReady();
  pendingReady.restore(vector.start.pendingReady);
  router.restoreForwardedSinceSync(vector.start.forwardedSinceSync);
  router.copyIn.restore(vector.start.copyIn);
  let readyStatus = vector.start.readyStatus;
  let stop: StopKind = "none";
  let routed: RoutedKind | undefined;
  const forwarded: Record<Side, number> = { client: 0, upstream: 0 };
  const fed: Record<Side, number> = { client: 0, upstream: 0 };

  const state = (): RelayState => ({
    pendingReady: pendingReady.count,
    forwardedSinceSync: router.forwardedSinceSync,
    readyStatus,
    copyIn: router.copyIn.active,
  });
  /** The state handed back with a question (before the router looks at it). */
  let handedBack: RelayState | undefined;

  const mayAsk = (type: number, bytes: Buffer) =>
    !router.copyIn.active &&
    (type === MessageType.query || type === MessageType.parse) &&
    router.marker.mayOccurInBytes(bytes, 5);

  const decideLarge = (type: number, total: number, head: Buffer): LargeMessageFate => {
    if (stop !== "none") return "hold";
    if (mayAsk(type, head)) {
      stop = "question";
      handedBack = state();
      routed = router.routeLarge(type, total, head).fate;
      return "hold";
    }
    const route = router.routeLarge(type, total, head);
    if (route.refused !== undefined) throw new Error("the router refused a large message the pre-check passed");
    if (route.awaitsReady) pendingReady.expect();
    return route.fate;
  };
  const onClientSegment = (segment: FramedSegment) => {
    if (stop !== "none") return;
    if (segment.kind === "message" && mayAsk(segment.type, segment.message)) {
      stop = "question";
      handedBack = state();
      routed = router.route(segment).kind;
      return;
    }
    const route = router.route(segment);
    if (route.kind !== "forward") throw new Error(`the router says ${route.kind} where the pre-check saw no marker`);
    if (route.awaitsReady) pendingReady.expect();
    forwarded.client += route.bytes.length;
  };
  const onUpstreamSegment = (segment: FramedSegment) => {
    if (stop !== "none") return;
    if (segment.kind === "bytes") {
      forwarded.upstream += segment.bytes.length;
      return;
    }
    router.copyIn.note(segment.type);
    if (segment.type === MessageType.readyForQuery) {
      readyStatus = readReadyStatus(segment.message);
      if (pendingReady.received()) router.upstreamSettled();
    }
    forwarded.upstream += segment.message.length;
  };
  const framers: Record<Side, MessageFramer> = {
    client: new MessageFramer({
      inspect: (type) => router.inspects(type),
      large: { limit: LARGE_CLIENT_MESSAGE_BYTES, decide: decideLarge },
    }),
    upstream: new MessageFramer({
      inspect: (type) => router.copyIn.inspects(type) || type === MessageType.readyForQuery,
    }),
  };
  const listeners: Record<Side, (segment: FramedSegment) => void> = {
    client: onClientSegment,
    upstream: onUpstreamSegment,
  };

  vector.steps.forEach((step, stepIndex) => {
    if (stop !== "none") throw new Error("a vector stops in its last step");
    const stepCuts = [0, ...cuts[stepIndex]!, step.bytes.length];
    for (let index = 0; index + 1 < stepCuts.length && stop === "none"; index++) {
      const chunk = step.bytes.subarray(stepCuts[index], stepCuts[index + 1]);
      try {
        framers[step.side].push(chunk, listeners[step.side]);
      } catch (error) {
        if (!(error instanceof ProtocolViolationError)) throw error;
        if (stop === "none") stop = "protocol";
      }
    }
    // Stopped or not, the step's bytes were read: what was not forwarded is held (the relay hands it back).
    fed[step.side] += step.bytes.length;
  });
  return {
    stop,
    forwarded,
    held: { client: fed.client - forwarded.client, upstream: fed.upstream - forwarded.upstream },
    ...(handedBack ?? state()),
    ...(routed === undefined ? {} : { routed }),
  };
}

describe("the stream rules (framing, ReadyForQuery accounting, COPY, hand-back) through the TypeScript router", () => {
  it.each(vectors.streams.map((vector) => [vector.name, vector] as const))("%s", (_name, vector) => {
    for (const { strategy, cuts } of vector.chunkings) {
      const outcome = runTypeScript(vector, cuts);
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
