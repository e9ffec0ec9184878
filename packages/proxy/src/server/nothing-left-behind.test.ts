import { testServerUrl } from "@nlq/adapters/testing";
import pg from "pg";
import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Answerer,
  answerWith,
  backendsGone,
  backendsNamed,
  RawClient,
  startTestProxy,
  uniqueName,
  upstreamDatabase,
  upstreamUser,
} from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const answerSlowly: Answerer = (options) => answerWith(options, "select pg_sleep(60) as n");
let proxy: ProxyServer;
const proxyStarted = startTestProxy(answerSlowly).then((started) => {
  proxy = started;
});
afterAll(async () => {
  await proxy.close();
});

/** Waits until a backend named `name` runs a statement that matches `query`. */
async function untilRunning(name: string, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await backendsNamed(name)) === 0 || !(await runs(name, what))) {
    if (Date.now() > deadline) throw new Error(`the backend never ran ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runs(name: string, what: string, waitEvent?: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    const result = await client.query(
      `select 1 from pg_stat_activity where application_name = $1 and state = 'active' and query like $2
         and ($3::text is null or wait_event = $3)`,
      [name, `%${what}%`, waitEvent ?? null],
    );
    return result.rowCount! > 0;
  } finally {
    await client.end();
  }
}

/**
 * Waits until the backend named `name`, running `what`, is blocked sending its rows (wait event ClientWrite): its
 * socket toward the proxy is full because the proxy stopped reading it for a client that reads nothing.
 */
async function untilBlockedWriting(name: string, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await runs(name, what, "ClientWrite"))) {
    if (Date.now() > deadline) throw new Error(`the backend running ${what} never waited to write to the proxy`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A client whose connection is reset (killed mid-read, a network failure) is gone: what runs for it is cancelled. A
// client that only ends its input (FIN) may still read, as a half-closed client does: it gets its results, as from
// PostgreSQL, and the backend goes once they are sent (half-close.test.ts).
describe("a client that disconnects leaves no upstream backend behind", () => {
  it("mid-result, while the proxy has stopped reading the upstream for the slow client (reproduction 4)", async () => {
    await proxyStarted;
    const name = uniqueName("nlq-left-result");
    const client = new RawClient(proxy.address.port);
    await client.startup(name);
    // The set-returning function in the select list streams its rows from the first (in FROM, PostgreSQL would build
    // all of them before sending one); about 1 GB, far more than the sockets between them hold, so the statement still
    // runs, blocked on the proxy, when the client goes (and too cheap an estimate for JIT compilation to start).
    const query = "select generate_series(1,10000000) as g, repeat('y',100)";
    client.socket.write(serialize.query(query));
    await client.waitFor(() => client.received > 1_000_000, "about 1 MB of rows");
    client.socket.pause();
    await untilBlockedWriting(name, "generate_series");
    client.socket.destroy();
    expect(await backendsGone(name)).toBe(true);
  });

  it("during a question", async () => {
    await proxyStarted;
    const name = uniqueName("nlq-left-question");
    const client = new RawClient(proxy.address.port);
    await client.startup(name);
    client.socket.write(serialize.query("/* nl: take your time */"));
    await untilRunning(name, "pg_sleep");
    client.socket.resetAndDestroy();
    expect(await backendsGone(name)).toBe(true);
  });

  it("during an extended-protocol pipeline", async () => {
    await proxyStarted;
    const name = uniqueName("nlq-left-extended");
    const client = new RawClient(proxy.address.port);
    await client.startup(name);
    client.socket.write(
      Buffer.concat([
        serialize.parse({ text: "select pg_sleep(60)" }),
        serialize.bind({}),
        serialize.execute({}),
        serialize.sync(),
        serialize.query("select 1"),
      ]),
    );
    await untilRunning(name, "pg_sleep");
    client.socket.resetAndDestroy();
    expect(await backendsGone(name)).toBe(true);
  });

  it("during startup, before authentication completed", async () => {
    await proxyStarted;
    const name = uniqueName("nlq-left-startup");
    const client = new RawClient(proxy.address.port);
    client.socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: name }));
    await client.waitFor((messages) => messages.some((message) => message.name === "authenticationOk"), "AuthOk");
    client.socket.destroy();
    expect(await backendsGone(name)).toBe(true);
  });
});
