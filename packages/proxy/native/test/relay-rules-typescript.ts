/**
 * The TypeScript side of the relay's rules as one runner, for the vitest test of the vector table
 * (packages/proxy/src/relay/relay-rules-vectors.test.ts) and for the generated fuzz vectors the C test checks
 * (write-relay-vectors.ts: random streams whose expected outcome is what this runner says).
 */

import { MessageType } from "../../src/protocol/frontend-messages";
import { type FramedSegment, type LargeMessageFate, MessageFramer } from "../../src/protocol/message-framer";
import { ProtocolViolationError } from "../../src/protocol/protocol-error";
import { readReadyStatus } from "../../src/protocol/ready-for-query";
import { ClientMessageRouter } from "../../src/session/client-message-router";
import { PendingReady } from "../../src/session/pending-ready";
import { LARGE_CLIENT_MESSAGE_BYTES } from "../../src/session/question-errors";
import type { RelayState, RoutedKind, Side, StopKind, StreamOutcome, StreamVector } from "./relay-rules-vectors";

export interface TypeScriptOutcome extends StreamOutcome {
  readonly routed?: RoutedKind;
}

/**
 * Feeds a vector's steps, cut as `cuts` says, through the TypeScript rules the way ProxyConnection composes them while
 * a connection is ready: MessageFramer per direction, ClientMessageRouter (its `inspects`, `route`, `routeLarge`),
 * PendingReady, CopyInState and the ReadyForQuery status. Where the relay would hand the connection back (a Query or
 * Parse that passes the marker pre-check), it stops, and notes what the router then does with that message.
 */
export function runTypeScriptRules(
  vector: Pick<StreamVector, "marker" | "start" | "steps">,
  cuts: ReadonlyArray<readonly number[]>,
  options: { readonly route?: boolean } = {},
): TypeScriptOutcome {
  const router = new ClientMessageRouter(vector.marker);
  const pendingReady = new PendingReady();
  pendingReady.restore(vector.start.pendingReady);
  router.restoreForwardedSinceSync(vector.start.forwardedSinceSync);
  router.copyIn.restore(vector.start.copyIn, vector.start.syncsAfterCommand);
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
    syncsAfterCommand: router.copyIn.syncsAfterCommand,
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
      if (options.route !== false) routed = router.routeLarge(type, total, head).fate;
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
      if (options.route !== false) routed = router.route(segment).kind;
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
    pendingReady.ignore(router.noteUpstream(segment.type));
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
    // The relay stops reading at a hand-back: later steps are not fed.
    if (stop !== "none") return;
    const stepCuts = [0, ...cuts[stepIndex]!, step.bytes.length];
    for (let index = 0; index + 1 < stepCuts.length && stop === "none"; index++) {
      const chunk = step.bytes.subarray(stepCuts[index], stepCuts[index + 1]);
      try {
        framers[step.side].push(chunk, listeners[step.side]);
      } catch (error) {
        if (!ProtocolViolationError.isInstance(error)) throw error;
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
