import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type EmbeddedPostgres, ensureDatabase, startEmbeddedPostgres } from "@nlq/adapters";
import { answerQuestion, loadSettings } from "@nlq/engine";
import type { ProxyServer } from "@nlq/proxy";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendCancel, startTestProxy } from "./proxy-fixture";

/**
 * CancelRequest through the proxy on the embedded stack (the real PostgreSQL 18 of `npm start`, started here in a
 * temporary directory): an ordinary statement and a question whose model call is still outstanding.
 */
describe("cancel through the proxy on embedded PostgreSQL", () => {
  const home = mkdtempSync(path.join(tmpdir(), "nlq-embedded-cancel-"));
  let server: EmbeddedPostgres;
  let proxy: ProxyServer;
  /** The abort signal of every call made to the model, in order. */
  const modelSignals: Array<AbortSignal | undefined> = [];
  // A model that never answers: its call ends only when its abort signal fires.
  const waitingModel = new MockLanguageModelV3({
    doGenerate: (call) => {
      modelSignals.push(call.abortSignal);
      return new Promise((_resolve, reject) => {
        call.abortSignal?.addEventListener("abort", () => reject(call.abortSignal?.reason));
      });
    },
  });

  beforeAll(async () => {
    server = await startEmbeddedPostgres({
      directory: path.join(home, "postgres"),
      port: 0,
      purpose: "cancel test",
      grantBelow: home,
    });
    await ensureDatabase(server.url("postgres"), "demo");
    const setup = new pg.Client({ connectionString: server.url("demo") });
    await setup.connect();
    await setup.query(
      "create table customers (id int primary key, name text); insert into customers values (1, 'Ada')",
    );
    await setup.end();
    const settings = loadSettings({ NLQ_MODEL: "test:waiting" });
    proxy = await startTestProxy(
      (options) =>
        answerQuestion({
          ...options,
          settings,
          resolveModel: () => ({ model: waitingModel, id: "test:waiting", scripted: false }),
        }),
      { upstreamHost: server.host, upstreamPort: server.port, settings },
    );
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  async function connect(): Promise<{ client: pg.Client; processId: number; secretKey: number }> {
    const client = new pg.Client({
      host: "127.0.0.1",
      port: proxy.address.port,
      user: new URL(server.url("demo")).username || "postgres",
      password: server.password.password,
      database: "demo",
    });
    client.on("error", () => {});
    await client.connect();
    const key = client as unknown as { processID: number; secretKey: number };
    return { client, processId: key.processID, secretKey: key.secretKey };
  }

  it("cancels select pg_sleep(30) within a second", async () => {
    const { client, processId, secretKey } = await connect();
    const observer = new pg.Client({ connectionString: server.url("demo") });
    await observer.connect();
    try {
      const sleeping = client.query("select pg_sleep(30)").catch((error: unknown) => error);
      await waitUntil(async () => {
        const activity = await observer.query("select state from pg_stat_activity where pid = $1", [processId]);
        return activity.rows[0]?.state === "active";
      });
      const cancelled = Date.now();
      await sendCancel(proxy.address.port, processId, secretKey);
      expect(await sleeping).toMatchObject({ code: "57014" });
      expect(Date.now() - cancelled).toBeLessThan(1_000);
      expect((await client.query("select 1 as still_usable")).rows).toEqual([{ still_usable: 1 }]);
    } finally {
      await observer.end();
      await client.end();
    }
  });

  it("cancels a question while its model call is outstanding: the call's abort signal fires", async () => {
    const { client, processId, secretKey } = await connect();
    try {
      modelSignals.length = 0;
      const asking = client.query("/* nl: how many customers are there? */").catch((error: unknown) => error);
      await waitUntil(async () => modelSignals.length > 0);
      expect(modelSignals[0]?.aborted).toBe(false);
      await sendCancel(proxy.address.port, processId, secretKey);
      expect(await asking).toMatchObject({ code: "57014" });
      // The default preset's three generators call the model concurrently: every call that started is aborted (a
      // generator that had not reached its call yet stops before making it).
      expect(modelSignals.length).toBeGreaterThanOrEqual(1);
      expect(modelSignals.every((signal) => signal?.aborted === true)).toBe(true);
      expect((await client.query("select count(*)::int as customers from customers")).rows).toEqual([{ customers: 1 }]);
    } finally {
      await client.end();
    }
  });
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
