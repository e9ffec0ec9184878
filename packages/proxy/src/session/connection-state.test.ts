import { describe, expect, it } from "vitest";
import type { RelayedConnection } from "../relay/native-relay";
import type { AnswerInProgress } from "./answer-in-progress";
import {
  answeringState,
  answerOf,
  type ConnectionState,
  finishesAfterClientEnd,
  holdsClientInput,
  mayCloseWhenFinished,
  mayHandToRelay,
  needsWholeClientMessages,
  READY,
  type RelayReadiness,
  statementsInFlightOf,
} from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { StatementsInFlight } from "./statements-in-flight";

const relayed: RelayedConnection = {
  release: () => undefined,
  detach: () => undefined,
  releaseOrDetach: () => undefined,
};

/** One state per step (the data of the steps that carry some is not read by these rules). */
const states: Record<ConnectionStep, ConnectionState> = {
  [ConnectionStep.AwaitingStartup]: { step: ConnectionStep.AwaitingStartup },
  [ConnectionStep.NegotiatingClientTls]: { step: ConnectionStep.NegotiatingClientTls },
  [ConnectionStep.AuthenticatingClient]: {
    step: ConnectionStep.AuthenticatingClient,
    authentication: {} as never,
    startupPacket: Buffer.alloc(0),
  },
  [ConnectionStep.ConnectingUpstream]: { step: ConnectionStep.ConnectingUpstream },
  [ConnectionStep.Authenticating]: { step: ConnectionStep.Authenticating },
  [ConnectionStep.Ready]: READY,
  [ConnectionStep.Answering]: answeringState(),
  [ConnectionStep.CollectingQuestionBatch]: { step: ConnectionStep.CollectingQuestionBatch, batch: {} as never },
  [ConnectionStep.Relayed]: { step: ConnectionStep.Relayed, relayed },
  [ConnectionStep.Closed]: { step: ConnectionStep.Closed },
};

const stepsWhere = (rule: (state: ConnectionState) => boolean) =>
  Object.values(ConnectionStep).filter((step) => rule(states[step]));

const idle: RelayReadiness = {
  state: READY,
  ending: { clientEnded: false, shuttingDown: false },
  clientEncrypted: false,
  clientInputQueued: false,
  questionBatchErrorPending: false,
  preparedQuestions: 0,
  followingEarlierQuestions: false,
  atMessageBoundaries: true,
  readsPaused: false,
};

describe("mayHandToRelay", () => {
  it("hands over a Ready connection with nothing to watch", () => {
    expect(mayHandToRelay(idle)).toBe(true);
  });

  it("hands over from Ready only: never while answering, collecting a batch, logging in, relayed or closed", () => {
    expect(stepsWhere((state) => mayHandToRelay({ ...idle, state }))).toEqual([ConnectionStep.Ready]);
  });

  it.each<[string, Partial<RelayReadiness>]>([
    ["the client ended its input", { ending: { clientEnded: true, shuttingDown: false } }],
    ["the server shuts down", { ending: { clientEnded: false, shuttingDown: true } }],
    ["TLS toward the client", { clientEncrypted: true }],
    ["client input queued", { clientInputQueued: true }],
    ["a question batch error waits for ReadyForQuery", { questionBatchErrorPending: true }],
    ["a prepared question", { preparedQuestions: 1 }],
    ["earlier questions a follow-up would see", { followingEarlierQuestions: true }],
    ["a partial message", { atMessageBoundaries: false }],
    ["a paused read", { readsPaused: true }],
  ])("keeps the connection when %s", (_reason, fact) => {
    expect(mayHandToRelay({ ...idle, ...fact })).toBe(false);
  });
});

describe("client input by step", () => {
  it("holds input while answering or connecting upstream, or behind input already held", () => {
    expect(stepsWhere((state) => holdsClientInput(state, false))).toEqual([
      ConnectionStep.ConnectingUpstream,
      ConnectionStep.Answering,
    ]);
    expect(stepsWhere((state) => holdsClientInput(state, true))).toEqual(Object.values(ConnectionStep));
  });

  it("frames every message whole where the proxy collects, queues or reads it itself", () => {
    expect(stepsWhere(needsWholeClientMessages)).toEqual([
      ConnectionStep.AuthenticatingClient,
      ConnectionStep.ConnectingUpstream,
      ConnectionStep.Answering,
      ConnectionStep.CollectingQuestionBatch,
    ]);
  });
});

describe("winding down by step", () => {
  it("finishes the session after the client's end when Ready, answering or relayed; else closes at once", () => {
    expect(stepsWhere(finishesAfterClientEnd)).toEqual([
      ConnectionStep.Ready,
      ConnectionStep.Answering,
      ConnectionStep.Relayed,
    ]);
  });

  it("closes a finished connection only when Ready or before its startup", () => {
    expect(stepsWhere(mayCloseWhenFinished)).toEqual([ConnectionStep.AwaitingStartup, ConnectionStep.Ready]);
  });
});

describe("answering data", () => {
  it("is read from the Answering state only", () => {
    const answering = answeringState();
    const answer = {} as AnswerInProgress;
    const run = new StatementsInFlight(() => undefined);
    answering.answer = answer;
    answering.statementsInFlight = run;
    expect(answerOf(answering)).toBe(answer);
    expect(statementsInFlightOf(answering)).toBe(run);
    expect(answerOf(READY)).toBeUndefined();
    expect(statementsInFlightOf(states[ConnectionStep.Closed])).toBeUndefined();
  });
});
