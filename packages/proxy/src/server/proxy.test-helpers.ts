import { connect, type Socket } from "node:net";
import { testServerUrl } from "@nlq/adapters/testing";
import type { Answer, AnswerQuestionOptions } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import pg from "pg";
import { serialize } from "pg-protocol";
import type { BackendMessage } from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";
import { silentLogger } from "./proxy-logger";
import { type ProxyServer, type ProxyServerOptions, startProxyServer } from "./proxy-server";

const serverUrl = new URL(testServerUrl);
export const upstreamHost = serverUrl.hostname;
export const upstreamPort = Number(serverUrl.port || 5432);
export const upstreamUser = decodeURIComponent(serverUrl.username || "postgres");
export const upstreamDatabase = decodeURIComponent(serverUrl.pathname.slice(1) || "postgres");

export type Answerer = (options: AnswerQuestionOptions) => Promise<Answer>;

/** An answer to `question` from a statement run on the session. */
export async function answerWith(options: AnswerQuestionOptions, sql: string): Promise<Answer> {
  const result = await options.session.query({
    sql,
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  return {
    question: options.question,
    sql,
    result,
    truncated: false,
    selection: singleCandidateSelection,
    model: { id: "test:fake", scripted: false },
    candidates: [{ generator: "test", sample: 0, sql, revisions: 0, ok: true, rows: result.rows.length }],
    calls: [],
    elapsedMilliseconds: 1,
  };
}

/** A proxy on port 0 in front of the local PostgreSQL. */
export function startTestProxy(answerQuestion: Answerer, overrides: Partial<ProxyServerOptions> = {}) {
  return startProxyServer({
    listenPort: 0,
    upstreamHost,
    upstreamPort,
    answerQuestion,
    settings: {} as ProxyServerOptions["settings"],
    logger: silentLogger,
    closeGraceMilliseconds: 500,
    ...overrides,
  });
}

export type Message = BackendMessage & Record<string, unknown>;

/** A bare protocol client: writes raw bytes, collects parsed backend messages. */
export class RawClient {
  readonly messages: Message[] = [];
  readonly socket: Socket;
  /** Bytes received so far. */
  received = 0;
  readonly closed: Promise<void>;
  readonly #parser = new Parser();

  constructor(port: number) {
    this.socket = connect({ host: upstreamHost, port });
    this.socket.on("data", (chunk: Buffer) => {
      this.received += chunk.length;
      this.#parser.parse(chunk, (message) => this.messages.push(message as Message));
    });
    this.socket.on("error", () => {});
    this.closed = new Promise((resolve) => this.socket.once("close", () => resolve()));
  }

  /** Sends a StartupMessage as `applicationName` and waits for the first ReadyForQuery. */
  async startup(applicationName: string): Promise<void> {
    this.socket.write(
      serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: applicationName }),
    );
    await this.waitFor((messages) => messages.some((message) => message.name === "readyForQuery"), "startup");
  }

  /** Waits until `arrived` holds; throws after `timeoutMilliseconds` (a generous bound, not a measurement). */
  async waitFor(arrived: (messages: readonly Message[]) => boolean, what: string, timeoutMilliseconds = 20_000) {
    const deadline = Date.now() + timeoutMilliseconds;
    while (!arrived(this.messages)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  count(name: string): number {
    return this.messages.filter((message) => message.name === name).length;
  }
}

/** Backends on the local PostgreSQL whose application_name is `applicationName`. */
export async function backendsNamed(applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      "select count(*) from pg_stat_activity where application_name = $1",
      [applicationName],
    );
    return Number(result.rows[0]!.count);
  } finally {
    await client.end();
  }
}

/**
 * Polls pg_stat_activity until no backend named `applicationName` is left; resolves true when they are
 * gone, false if one is still there after `timeoutMilliseconds` (generous: this is not a timing test).
 */
export async function backendsGone(applicationName: string, timeoutMilliseconds = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMilliseconds;
  while ((await backendsNamed(applicationName)) > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** A node-postgres client connected through the proxy as the test user. */
export async function connectThroughProxy(proxy: ProxyServer): Promise<pg.Client> {
  const client = new pg.Client({
    host: upstreamHost,
    port: proxy.address.port,
    user: upstreamUser,
    database: upstreamDatabase,
  });
  await client.connect();
  return client;
}

/** The proxy's count of open connections once it reaches `expected` (polled: closing is asynchronous), else its last value. */
export async function connectionCountReaching(proxy: ProxyServer, expected: number): Promise<number> {
  for (let attempt = 0; attempt < 100 && proxy.connectionCount !== expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return proxy.connectionCount;
}

/** `select 1` through the proxy on a fresh connection. */
export async function selectOne(proxy: ProxyServer): Promise<number> {
  const client = await connectThroughProxy(proxy);
  try {
    const result = await client.query<{ one: number }>("select 1 as one");
    return result.rows[0]!.one;
  } finally {
    await client.end();
  }
}

/** A unique application_name for one test's backends. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Waits until the proxy closes `socket`, collecting what it sent. `closedByProxy` is false when the socket was still
 * open after `boundMilliseconds` (a generous bound, not a measurement: the test then destroys it itself).
 */
export function awaitProxyClose(
  socket: Socket,
  boundMilliseconds = 10_000,
): Promise<{ readonly bytes: Buffer; readonly closedByProxy: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closedByProxy = true;
    const timer = setTimeout(() => {
      closedByProxy = false;
      socket.destroy();
    }, boundMilliseconds);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(chunks), closedByProxy });
    });
  });
}
