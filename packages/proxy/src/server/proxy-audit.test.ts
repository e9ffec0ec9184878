import { type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { uncheckedAuditEntries as auditEntries, createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { NlqError } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerWith,
  startTestProxy,
  upstreamDatabase,
  upstreamHost,
  upstreamPort,
  upstreamUser,
} from "./proxy.test-helpers";
import { proxyAsker, startupParameters } from "./proxy-asker";
import type { ProxyServer } from "./proxy-server";

// The proxy's part of the audit trail (issue 19 item 5): every question answered on a connection is recorded with
// surface proxy, the StartupMessage's user, database and application_name, and the client's address.
let metadata: TestDatabase;
let store: MetadataStore;
let proxy: ProxyServer;

beforeAll(async () => {
  metadata = await createTestDatabase("nlq_proxy_audit_store");
  store = await openMetadataStore({ url: metadata.url });
  proxy = await startTestProxy(
    async (options) => {
      if (options.question.includes("secret"))
        throw new NlqError("permission denied for table secrets", { code: "42501" });
      return answerWith(options, "SELECT n FROM generate_series(1, 3) AS n");
    },
    { auditTrail: store.auditTrail },
  );
});
afterAll(async () => {
  await proxy?.close();
  await store?.close();
  await metadata?.drop();
});

describe("the proxy's audit trail", () => {
  it("records answered and failed questions with the connection's role, database, application name and address", async () => {
    const client = new pg.Client({
      host: upstreamHost,
      port: proxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
      application_name: "audit-test-client",
    });
    await client.connect();
    try {
      const answered = await client.query("/* nl: count to three */;");
      expect(answered.rows).toHaveLength(3);
      await expect(client.query("/* nl: show the secret table */;")).rejects.toThrow("permission denied");
      // Ordinary SQL is not a question: nothing is recorded for it.
      await client.query("SELECT 1");
    } finally {
      await client.end();
    }
    expect(await store.auditTrail.flush()).toBe(true);
    const entries = await auditEntries(store.database, {
      dataSource: `${upstreamHost}:${upstreamPort}/${upstreamDatabase}`,
      role: upstreamUser,
      surface: "proxy",
      limit: 10,
    });
    expect(entries.map((entry) => entry.question).sort()).toEqual(["count to three", "show the secret table"]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ surface: "proxy", role: upstreamUser, applicationName: "audit-test-client" });
      expect(entry.clientAddress).toMatch(/127\.0\.0\.1|::1/);
    }
    expect(entries.find((entry) => entry.ok)).toMatchObject({
      sql: "SELECT n FROM generate_series(1, 3) AS n",
      rows: 3,
    });
    expect(entries.find((entry) => !entry.ok)).toMatchObject({ errorCode: "42501", sql: null });
  });
});

describe("proxyAsker", () => {
  const startup = (parameters: Record<string, string>) => {
    const body = Buffer.concat([
      ...Object.entries(parameters).flatMap(([name, value]) => [Buffer.from(`${name}\0${value}\0`)]),
      Buffer.from([0]),
    ]);
    const header = Buffer.alloc(8);
    header.writeInt32BE(body.length + 8, 0);
    header.writeInt32BE(196608, 4);
    return Buffer.concat([header, body]);
  };

  it("reads user, database (default: the user) and application_name; none without a user", () => {
    const upstream = { host: "db.internal", port: 5433 };
    expect(
      proxyAsker(startup({ user: "alice", application_name: "Metabase" }), { remoteAddress: "10.1.2.3" }, upstream),
    ).toEqual({
      surface: "proxy",
      role: "alice",
      dataSource: "db.internal:5433/alice",
      clientAddress: "10.1.2.3",
      applicationName: "Metabase",
    });
    expect(proxyAsker(startup({ user: "bob", database: "shop" }), { remoteAddress: undefined }, upstream)).toEqual({
      surface: "proxy",
      role: "bob",
      dataSource: "db.internal:5433/shop",
    });
    expect(proxyAsker(startup({ database: "shop" }), { remoteAddress: "10.1.2.3" }, upstream)).toBeUndefined();
    expect(startupParameters(Buffer.from([0, 0, 0, 4]))).toEqual(new Map());
  });
});
