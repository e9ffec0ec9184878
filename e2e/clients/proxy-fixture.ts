import { connect } from "node:net";
import { testServerUrl } from "@nlq/adapters/testing";
import { type Answer, type AnswerQuestionOptions, loadSettings, type QueryResult, type ResultField } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import {
  encodeCancelRequest,
  type ProxyServer,
  type ProxyServerOptions,
  type ProxySettings,
  silentLogger,
  startProxyServer,
} from "@nlq/proxy";
import type pg from "pg";

/** The local PostgreSQL the real-client tests run against (`NLQ_TEST_DATABASE_URL`, see core's test-database). */
const adminUrl = new URL(testServerUrl);
export const upstreamHost = adminUrl.hostname;
export const upstreamPort = Number(adminUrl.port || 5432);
export const upstreamUser = decodeURIComponent(adminUrl.username || "postgres");

/** The defaults: the proxy itself reads `maxQuestionLength`; the injected answerer ignores the rest. */
const defaultSettings: ProxySettings = loadSettings({});

export type Answerer = (options: AnswerQuestionOptions) => Promise<Answer>;

/** Starts a proxy on port 0 in front of the local PostgreSQL; `overrides` replace any of these defaults. */
export function startTestProxy(
  answerQuestion: Answerer,
  overrides: Partial<ProxyServerOptions> = {},
): Promise<ProxyServer> {
  return startProxyServer({
    listenPort: 0,
    upstreamHost,
    upstreamPort,
    answerQuestion,
    settings: defaultSettings,
    logger: silentLogger,
    closeGraceMilliseconds: 200,
    ...overrides,
  });
}

/** An answer built from a statement the fake answerer ran on the session. */
export function answerFrom(question: string, sql: string, result: QueryResult, scripted = false): Answer {
  return {
    question,
    sql,
    result,
    truncated: false,
    selection: singleCandidateSelection,
    model: { id: scripted ? "scripted:test.json" : "test:fake", scripted },
    candidates: [{ generator: "test", sample: 0, sql, revisions: 0, ok: true, rows: result.rows.length }],
    calls: [],
    elapsedMilliseconds: 1,
  };
}

/** An answerer that runs a fixed SQL statement on the client's session. */
export function runSqlAnswerer(sql: string, scripted = false): Answerer {
  return async (options) => {
    const result = await options.session.query({
      sql,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    return answerFrom(options.question, sql, result, scripted);
  };
}

export const textField = (name: string): ResultField => ({
  name,
  dataTypeId: 25,
  dataTypeSize: -1,
  dataTypeModifier: -1,
  tableId: 0,
  columnId: 0,
});

/** Connection settings for node-postgres, directly or through the proxy. */
export function clientConfig(database: string, port: number): pg.ClientConfig {
  return { host: upstreamHost, port, user: upstreamUser, database };
}

/** Sends a CancelRequest for the backend key to `port` and resolves when the server closes the socket. */
export function sendCancel(port: number, processId: number, secretKey: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: upstreamHost, port }, () => socket.end(encodeCancelRequest(processId, secretKey)));
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}
