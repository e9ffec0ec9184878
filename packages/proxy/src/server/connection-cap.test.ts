import { connect } from "node:net";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { encodeCancelRequest } from "../protocol/frontend-messages";
import { answerWith, startTestProxy, upstreamDatabase, upstreamHost, upstreamUser } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const servers: ProxyServer[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function client(server: ProxyServer): pg.Client {
  const created = new pg.Client({
    host: upstreamHost,
    port: server.address.port,
    user: upstreamUser,
    database: upstreamDatabase,
  });
  created.on("error", () => undefined);
  clients.push(created);
  return created;
}

async function metricsText(server: ProxyServer): Promise<string> {
  const address = server.metricsAddress!;
  return (await fetch(`http://${address.host}:${address.port}/metrics`)).text();
}

describe("the connection cap (NLQ_MAX_CONNECTIONS)", () => {
  it("answers one client too many with PostgreSQL's FATAL 53300 and serves new clients once one leaves", async () => {
    const server = await startTestProxy((options) => answerWith(options, "select 1"), {
      maxConnections: 2,
      metricsListen: { host: "127.0.0.1", port: 0 },
    });
    servers.push(server);
    const first = client(server);
    const second = client(server);
    await first.connect();
    await second.connect();

    const third = client(server);
    const refused = await third.connect().then(
      () => undefined,
      (error: unknown) => error as { code?: string; severity?: string; message?: string },
    );
    expect(refused).toMatchObject({ code: "53300", severity: "FATAL", message: "sorry, too many clients already" });
    // The served clients are untouched.
    expect((await first.query("select 7 as seven")).rows).toEqual([{ seven: 7 }]);

    const metrics = await metricsText(server);
    expect(metrics).toMatch(/^nlq_proxy_max_connections 2$/m);
    expect(metrics).toMatch(/^nlq_proxy_connections_refused_total 1$/m);
    expect(metrics).toMatch(/^nlq_proxy_open_connections 2$/m);

    await second.end();
    await expect.poll(() => server.connectionCount).toBe(1);
    const fourth = client(server);
    await fourth.connect();
    expect((await fourth.query("select 8 as eight")).rows).toEqual([{ eight: 8 }]);
  });

  it("still forwards a CancelRequest from beyond the cap", async () => {
    const server = await startTestProxy((options) => answerWith(options, "select 1"), { maxConnections: 1 });
    servers.push(server);
    const busy = client(server);
    await busy.connect();
    const sleeping = busy.query("select pg_sleep(30)");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A CancelRequest on a new connection (one over the cap), as psql sends on Ctrl-C.
    const key = busy as unknown as { processID: number; secretKey: number };
    expect(key.processID).toBeGreaterThan(0);
    const cancel = connect({ host: upstreamHost, port: server.address.port });
    cancel.on("error", () => undefined);
    cancel.end(encodeCancelRequest(key.processID, key.secretKey));
    await expect(sleeping).rejects.toMatchObject({ code: "57014" });
  });

  it("closes a client beyond the cap that ends its input before its startup packet, without waiting for the timeout", async () => {
    const server = await startTestProxy((options) => answerWith(options, "select 1"), {
      maxConnections: 1,
      clientLoginTimeoutMilliseconds: 60_000,
    });
    servers.push(server);
    const served = client(server);
    await served.connect();
    const extra = connect({ host: upstreamHost, port: server.address.port });
    extra.on("error", () => undefined);
    await new Promise((resolve) => extra.once("connect", resolve));
    extra.end();
    const closed = await Promise.race([
      new Promise((resolve) => extra.once("close", () => resolve(true))),
      new Promise((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    expect(closed).toBe(true);
    extra.destroy();
  });
});
