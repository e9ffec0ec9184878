import { createTestDatabase } from "@nlq/adapters/testing";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientConfig, sendCancel, startTestProxy, upstreamPort } from "./proxy-fixture";

/**
 * Ordinary SQL through the proxy must behave exactly as it does directly: the same scenario runs on
 * a direct node-postgres connection and on one through the proxy, and the recorded outcomes (rows,
 * errors with SQLSTATEs, notices, notifications, transaction status after every step) must be equal.
 */

type Outcome = Record<string, unknown>;

async function runScenario(database: string, port: number): Promise<Outcome[]> {
  const client = new pg.Client(clientConfig(database, port));
  const notices: string[] = [];
  client.on("notice", (notice) => notices.push(`${notice.severity} ${notice.code} ${notice.message}`));
  await client.connect();
  const outcomes: Outcome[] = [];
  const step = async (label: string, run: () => Promise<unknown>) => {
    try {
      const value = await run();
      outcomes.push({ label, ok: summarize(value), status: client.getTransactionStatus(), notices: notices.splice(0) });
    } catch (error) {
      const failure = error as { code?: string; message: string; severity?: string; position?: string };
      // node-postgres rejects at ErrorResponse but updates the status only at the ReadyForQuery after it, which may
      // arrive in a later read. An empty query (no effect on the transaction, even an aborted one) waits for it.
      await client.query("").catch(() => undefined);
      outcomes.push({
        label,
        error: { code: failure.code, message: failure.message, severity: failure.severity, position: failure.position },
        status: client.getTransactionStatus(),
        notices: notices.splice(0),
      });
    }
  };
  try {
    await step("multi-statement simple query", () =>
      client.query(
        "create table items (id int primary key, name text not null); insert into items values (1, 'one'), (2, 'two'), (3, 'three'); select count(*) from items",
      ),
    );
    await step("multi-statement with an error", () =>
      client.query("insert into items values (4, 'four'); insert into items values (1, 'dup'); select 1"),
    );
    await step("more rows", () => client.query("insert into items values (4, 'four') returning *"));
    await step("not null violation", () => client.query("insert into items values (5, null)"));
    await step("parameters (extended protocol)", () => client.query("select * from items where id = $1", [2]));
    await step("named prepared statement", () =>
      client.query({ name: "by_id", text: "select name from items where id = $1", values: [3] }),
    );
    await step("named prepared statement again", () =>
      client.query({ name: "by_id", text: "select name from items where id = $1", values: [4] }),
    );
    await step("division by zero", () => client.query("select 1 / 0"));
    await step("syntax error (extended)", () => client.query("selec $1", [1]));
    await step("unique violation", () => client.query("insert into items values (1, 'again')"));
    await step("types", () =>
      client.query(
        "select 1::int8 as big, 'x'::text as t, null as n, 1.5::numeric as num, '{1,2}'::int[] as arr, '2024-01-02 03:04:05+00'::timestamptz at time zone 'UTC' as ts, 'é'::text as accent",
      ),
    );
    await step("begin", () => client.query("begin"));
    await step("insert in transaction", () => client.query("insert into items values (10, 'ten')"));
    await step("savepoint", () => client.query("savepoint before_failure"));
    await step("failure in transaction", () => client.query("select * from missing_table"));
    await step("statement in failed transaction", () => client.query("select 1"));
    await step("rollback to savepoint", () => client.query("rollback to savepoint before_failure"));
    await step("still in transaction", () => client.query("select count(*) from items"));
    await step("failure again", () => client.query("select 1 / 0"));
    await step("rollback", () => client.query("rollback"));
    await step("after rollback", () => client.query("select count(*) from items"));
    await step("notice", () => client.query("do $$ begin raise notice 'hello %', 42; raise warning 'careful'; end $$"));
    await step("empty query", () => client.query(""));
    await step("large result", () =>
      client.query("select i, repeat('x', i % 100) as pad from generate_series(1, 20000) as i"),
    );
    await step("large parameter", () => client.query("select length($1::text) as length", ["y".repeat(1_000_000)]));
    await step("commit outside transaction", () => client.query("commit"));
    await step("notify", async () => {
      const received: string[] = [];
      client.on("notification", (message) => received.push(`${message.channel}:${message.payload}`));
      await client.query("listen nlq_channel");
      await client.query("notify nlq_channel, 'ping'");
      await client.query("select 1");
      return received;
    });
    await step("drop", () => client.query("drop table items"));
  } finally {
    await client.end();
  }
  return outcomes;
}

function summarize(value: unknown): unknown {
  if (Array.isArray(value) && value.every((item) => item instanceof Object && "rows" in item)) {
    return value.map(summarize);
  }
  if (value instanceof Object && "rows" in value) {
    const result = value as pg.QueryResult;
    const rows = result.rows.length > 50 ? { count: result.rows.length, sample: result.rows.slice(-3) } : result.rows;
    return {
      command: result.command,
      rowCount: result.rowCount,
      fields: result.fields?.map((field) => field.name),
      rows,
    };
  }
  return value;
}

describe("ordinary SQL through the proxy (node-postgres)", () => {
  let proxy: ProxyServer;
  let direct: { name: string; drop(): Promise<void> };
  let proxied: { name: string; drop(): Promise<void> };

  beforeAll(async () => {
    proxy = await startTestProxy(async () => {
      throw new Error("no question expected");
    });
    direct = await createTestDatabase("nlq_proxy_direct");
    proxied = await createTestDatabase("nlq_proxy_proxied");
  });

  afterAll(async () => {
    await proxy?.close();
    await direct?.drop();
    await proxied?.drop();
  });

  it("records the same outcomes directly and through the proxy", async () => {
    const directOutcomes = await runScenario(direct.name, upstreamPort);
    const proxiedOutcomes = await runScenario(proxied.name, proxy.address.port);
    if (process.env.NLQ_DEBUG_PARITY) console.log(JSON.stringify(directOutcomes, null, 1));
    expect(directOutcomes.length).toBeGreaterThan(20);
    // sanity: the scenario really exercises failures, transactions and notices
    expect(directOutcomes.find((outcome) => outcome.label === "failure in transaction")).toMatchObject({
      status: "E",
      error: { code: "42P01" },
    });
    expect(directOutcomes.find((outcome) => outcome.label === "notice")?.notices).toEqual([
      "NOTICE 00000 hello 42",
      "WARNING 01000 careful",
    ]);
    expect(directOutcomes.find((outcome) => outcome.label === "notify")?.ok).toEqual(["nlq_channel:ping"]);
    expect(proxiedOutcomes).toEqual(directOutcomes);
  });

  it("forwards a client CancelRequest for ordinary SQL to the upstream", async () => {
    const client = new pg.Client(clientConfig(proxied.name, proxy.address.port));
    await client.connect();
    try {
      const started = Date.now();
      const pending = client.query("select pg_sleep(30)").catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const keyed = client as unknown as { processID: number; secretKey: number };
      await sendCancel(proxy.address.port, keyed.processID, keyed.secretKey);
      expect(((await pending) as pg.DatabaseError).code).toBe("57014");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it("ends connections still open after the close grace period", async () => {
    const closing = await startTestProxy(async () => {
      throw new Error("no question expected");
    });
    const client = new pg.Client(clientConfig(proxied.name, closing.address.port));
    const ended = new Promise<void>((resolve) => client.on("end", () => resolve()));
    client.on("error", () => {});
    await client.connect();
    const started = Date.now();
    await closing.close();
    await ended;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(closing.connectionCount).toBe(0);
  });

  it("closes gracefully with no connections left", async () => {
    const client = new pg.Client(clientConfig(proxied.name, proxy.address.port));
    await client.connect();
    expect(proxy.connectionCount).toBe(1);
    await client.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(proxy.connectionCount).toBe(0);
  });
});
