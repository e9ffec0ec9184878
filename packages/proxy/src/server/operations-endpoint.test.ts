import { createServer } from "node:net";
import { NlqError } from "@nlq/engine";
import { afterEach, describe, expect, it } from "vitest";
import { type Answerer, answerWith, connectThroughProxy, selectOne, startTestProxy } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

/** Answers with `select 42`, after one model call and one whose output was unreadable; a question containing "fail" fails with 42P01. */
const answerer: Answerer = async (options) => {
  if (options.question.includes("fail")) throw new NlqError("no such table", { code: "42P01" });
  options.onEvent?.({ type: "llm-call-start", step: "generate-candidate" });
  options.onEvent?.({
    type: "llm-call-end",
    call: {
      step: "generate-candidate",
      model: "test:fake",
      scripted: false,
      inputTokens: 120,
      outputTokens: 30,
      latencyMilliseconds: 250,
    },
  });
  options.onEvent?.({ type: "llm-call-start", step: "select-candidate" });
  options.onEvent?.({
    type: "llm-call-end",
    call: {
      step: "select-candidate",
      model: "test:fake",
      scripted: false,
      failure: "unreadable-output",
      inputTokens: 80,
      outputTokens: 5,
      latencyMilliseconds: 100,
    },
  });
  return answerWith(options, "select 42 as answer");
};

const servers: ProxyServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startWithMetrics(upstreamPort?: number): Promise<ProxyServer> {
  const server = await startTestProxy(answerer, {
    metricsListen: { host: "127.0.0.1", port: 0 },
    ...(upstreamPort === undefined ? {} : { upstreamPort }),
  });
  servers.push(server);
  return server;
}

function endpoint(server: ProxyServer, path: string): string {
  const address = server.metricsAddress;
  if (address === undefined) throw new Error("no metrics endpoint");
  return `http://${address.host}:${address.port}${path}`;
}

/** Asks each question on one connection through the proxy; returns the error codes (undefined when answered). */
async function ask(server: ProxyServer, questions: readonly string[]): Promise<Array<string | undefined>> {
  const client = await connectThroughProxy(server);
  try {
    const codes: Array<string | undefined> = [];
    for (const question of questions) {
      codes.push(
        await client.query(`/* nl: ${question} */`).then(
          () => undefined,
          (error: { code?: string }) => error.code,
        ),
      );
    }
    return codes;
  } finally {
    await client.end();
  }
}

/** Waits until the proxy has let go of every connection (a generous bound, not a measurement). */
async function connectionsClosed(server: ProxyServer): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (server.connectionCount > 0) {
    if (Date.now() > deadline) throw new Error("connections still open");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A TCP port on which nothing listens. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The value of one sample line (`name{labels} value`) in a Prometheus text exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the operations endpoint", () => {
  it("counts connections, questions, model calls, tokens and errors in /metrics", async () => {
    const server = await startWithMetrics();
    expect(await selectOne(server)).toBe(1);
    expect(await ask(server, ["what is the answer?", "please fail"])).toEqual([undefined, "42P01"]);
    await connectionsClosed(server);

    const response = await fetch(endpoint(server, "/metrics"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(sample(text, "nlq_proxy_connections_accepted_total")).toBe(2);
    expect(sample(text, "nlq_proxy_open_connections")).toBe(0);
    expect(sample(text, 'nlq_questions_total{outcome="answered",sqlstate_class=""}')).toBe(1);
    expect(sample(text, 'nlq_questions_total{outcome="failed",sqlstate_class="42"}')).toBe(1);
    expect(sample(text, 'nlq_errors_total{sqlstate="42P01"}')).toBe(1);
    expect(sample(text, 'nlq_question_duration_seconds_count{outcome="answered"}')).toBe(1);
    expect(sample(text, 'nlq_llm_calls_total{step="generate-candidate",model="test:fake"}')).toBe(1);
    expect(sample(text, 'nlq_llm_calls_total{step="select-candidate",model="test:fake"}')).toBe(1);
    expect(
      sample(
        text,
        'nlq_llm_call_failures_total{step="select-candidate",model="test:fake",failure="unreadable-output"}',
      ),
    ).toBe(1);
    expect(sample(text, 'nlq_llm_call_failures_total{step="generate-candidate",model="test:fake"')).toBeUndefined();
    expect(sample(text, 'nlq_llm_tokens_total{step="generate-candidate",model="test:fake",direction="input"}')).toBe(
      120,
    );
    expect(sample(text, 'nlq_llm_tokens_total{step="generate-candidate",model="test:fake",direction="output"}')).toBe(
      30,
    );
    expect(sample(text, 'nlq_pipeline_step_duration_seconds_sum{step="generate-candidate",model="test:fake"}')).toBe(
      0.25,
    );
    expect(
      sample(text, 'nlq_pipeline_step_duration_seconds_bucket{le="0.25",step="generate-candidate",model="test:fake"}'),
    ).toBe(1);
    expect(
      sample(text, 'nlq_pipeline_step_duration_seconds_bucket{le="0.1",step="generate-candidate",model="test:fake"}'),
    ).toBe(0);
  });

  it("reports an open connection while a client is connected", async () => {
    const server = await startWithMetrics();
    const client = await connectThroughProxy(server);
    try {
      const text = await (await fetch(endpoint(server, "/metrics"))).text();
      expect(sample(text, "nlq_proxy_open_connections")).toBe(1);
      // Logged in and idle: its ordinary SQL passes through the native relay.
      expect(sample(text, "nlq_proxy_relayed_connections")).toBe(1);
    } finally {
      await client.end();
    }
    const deadline = Date.now() + 5_000;
    let relayed = 1;
    while (relayed !== 0 && Date.now() < deadline) {
      relayed = sample(await (await fetch(endpoint(server, "/metrics"))).text(), "nlq_proxy_relayed_connections") ?? -1;
    }
    expect(relayed).toBe(0);
  });

  it("answers /health with 200 when the proxy listens and the upstream accepts connections", async () => {
    const server = await startWithMetrics();
    const response = await fetch(endpoint(server, "/health"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers /health with 503 when the upstream is unreachable", async () => {
    const server = await startWithMetrics(await closedPort());
    const response = await fetch(endpoint(server, "/health"));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable" });
  });

  it("answers 404 for another path and 405 for another method", async () => {
    const server = await startWithMetrics();
    expect((await fetch(endpoint(server, "/"))).status).toBe(404);
    expect((await fetch(endpoint(server, "/metrics"), { method: "POST" })).status).toBe(405);
  });

  it("is not served without metricsListen", async () => {
    const server = await startTestProxy(answerer);
    servers.push(server);
    expect(server.metricsAddress).toBeUndefined();
  });
});
