import type { Catalog } from "@nlq/engine";
import { createEmbeddedVectorStore, createOfflineEmbeddingModel, introspectCatalog, runReadOnly } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { indexCatalog } from "./index-catalog";
import { LiveSampleValueCache } from "./live-sample-values";
import { restrictToRole } from "./load-catalog";
import { prepareIndexedQuestion } from "./prepare-indexed-question";

const first = `nlq_samples_first_${process.pid}`;
const second = `nlq_samples_second_${process.pid}`;
let database: TestDatabase;
let admin: pg.Client;
let indexed: Catalog;
const clients: pg.Client[] = [];

/** A new session as `role` (each test's own, closed at the end). */
async function sessionAs(role: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.urlFor(role) });
  await client.connect();
  clients.push(client);
  return client;
}

/** The examples of `table` in the catalog `restrictToRole` gives `client`'s role (undefined: the table is not shown). */
async function examplesOf(
  client: pg.Client,
  cache: LiveSampleValueCache,
  table: string,
  transactionStatus: "idle" | "in-transaction" = "idle",
): Promise<readonly string[] | undefined> {
  const catalog = await restrictToRole(indexed, {
    session: createPgExecutor(client),
    transactionStatus,
    sampleValues: "live",
    liveSampleValueCache: cache,
  });
  return catalog.tables.find((candidate) => candidate.name === table)?.columns[0]?.sampleValues;
}

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_live_samples",
    `DROP ROLE IF EXISTS ${first}; CREATE ROLE ${first} LOGIN;
     DROP ROLE IF EXISTS ${second}; CREATE ROLE ${second} LOGIN;
     CREATE TABLE city (name text);
     INSERT INTO city VALUES ('Lisbon');
     GRANT SELECT, UPDATE ON city TO ${first}, ${second};
     CREATE TABLE tenant_note (note text, tenant text);
     INSERT INTO tenant_note VALUES ('note of a', 'a'), ('note of b', 'b');
     ALTER TABLE tenant_note ENABLE ROW LEVEL SECURITY;
     CREATE POLICY own_tenant ON tenant_note USING (tenant = current_setting('app.tenant', true));
     GRANT SELECT ON tenant_note TO ${first};`,
  );
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  indexed = await runReadOnly({ session: createPgExecutor(admin), statementTimeoutMilliseconds: 30_000 }, (query) =>
    introspectCatalog(query),
  );
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await admin?.end();
  await database?.drop();
  await dropTestRole(first);
  await dropTestRole(second);
});

describe("restrictToRole's live examples through a LiveSampleValueCache", () => {
  it("reuses a role's examples for their time to live, and a revoked grant hides the table at once", async () => {
    let now = 0;
    const cache = new LiveSampleValueCache({ ttlMilliseconds: 60_000, now: () => now });
    await admin.query("UPDATE city SET name = 'Lisbon'");
    const session = await sessionAs(first);
    expect(await examplesOf(session, cache, "city")).toEqual(["Lisbon"]);
    await admin.query("UPDATE city SET name = 'Porto'");
    expect(await examplesOf(session, cache, "city")).toEqual(["Lisbon"]);
    await admin.query(`REVOKE SELECT ON city FROM ${first}`);
    try {
      expect(await examplesOf(session, cache, "city")).toBeUndefined();
    } finally {
      await admin.query(`GRANT SELECT ON city TO ${first}`);
    }
    now = 60_001;
    expect(await examplesOf(session, cache, "city")).toEqual(["Porto"]);
  });

  it("does not remember a table whose read failed (held by a lock past the sample timeout) as having no examples", async () => {
    const cache = new LiveSampleValueCache();
    await admin.query("UPDATE city SET name = 'Lisbon'");
    const session = await sessionAs(second);
    const locker = await sessionAs(first);
    await locker.query("BEGIN");
    try {
      await locker.query("LOCK TABLE city IN ACCESS EXCLUSIVE MODE");
      expect(await examplesOf(session, cache, "city")).toEqual([]);
    } finally {
      await locker.query("ROLLBACK");
    }
    expect(cache.size).toBe(0);
    expect(await examplesOf(session, cache, "city")).toEqual(["Lisbon"]);
  });

  it("never gives one role the examples another role's question read", async () => {
    const cache = new LiveSampleValueCache();
    await admin.query("UPDATE city SET name = 'Lisbon'");
    expect(await examplesOf(await sessionAs(first), cache, "city")).toEqual(["Lisbon"]);
    await admin.query("UPDATE city SET name = 'Porto'");
    expect(await examplesOf(await sessionAs(second), cache, "city")).toEqual(["Porto"]);
  });

  it("reads tables under row-level security on every question: a policy may depend on the session", async () => {
    const cache = new LiveSampleValueCache();
    const tenantA = await sessionAs(first);
    await tenantA.query("SET app.tenant = 'a'");
    const tenantB = await sessionAs(first);
    await tenantB.query("SET app.tenant = 'b'");
    expect(await examplesOf(tenantA, cache, "tenant_note")).toEqual(["note of a"]);
    expect(await examplesOf(tenantB, cache, "tenant_note")).toEqual(["note of b"]);
  });

  it("neither fills nor reads the cache from a session in a transaction (its rows may never be committed)", async () => {
    const cache = new LiveSampleValueCache();
    await admin.query("UPDATE city SET name = 'Lisbon'");
    const writer = await sessionAs(first);
    await writer.query("BEGIN");
    try {
      await writer.query("UPDATE city SET name = 'Uncommitted'");
      expect(await examplesOf(writer, cache, "city", "in-transaction")).toEqual(["Uncommitted"]);
      expect(cache.size).toBe(0);
    } finally {
      await writer.query("ROLLBACK");
    }
    expect(await examplesOf(await sessionAs(first), cache, "city")).toEqual(["Lisbon"]);
  });

  it("keys a table whose name holds a backslash and a quote under the role's standard_conforming_strings off", async () => {
    const table = String.raw`odd\name 'quoted'`;
    const quoted = `"${table}"`;
    await admin.query(`CREATE TABLE ${quoted} (label text); INSERT INTO ${quoted} VALUES ('kept');`);
    try {
      await admin.query(`GRANT SELECT ON ${quoted} TO ${first}`);
      const catalog = await runReadOnly(
        { session: createPgExecutor(admin), statementTimeoutMilliseconds: 30_000 },
        (query) => introspectCatalog(query),
      );
      const session = await sessionAs(first);
      await session.query("SET standard_conforming_strings = off");
      const cache = new LiveSampleValueCache();
      const restricted = await restrictToRole(
        { ...catalog, tables: catalog.tables.filter((candidate) => candidate.name === table) },
        { session: createPgExecutor(session), sampleValues: "live", liveSampleValueCache: cache },
      );
      expect(restricted.tables[0]?.columns[0]?.sampleValues).toEqual(["kept"]);
      expect(cache.size).toBe(1);
    } finally {
      await admin.query(`DROP TABLE ${quoted}`);
    }
  });
});

describe("prepareIndexedQuestion on a small indexed catalog", () => {
  it("reads a role's examples once, not on every question", async () => {
    const store = await openMetadataStore({ directory: "memory://" });
    try {
      const dataSource = await ensureDataSource(store.database, { url: database.url });
      await indexCatalog({
        executor: createPgExecutor(admin),
        database: store.database,
        dataSourceId: dataSource.id,
        vectorStore: createEmbeddedVectorStore(),
        embeddingModel: createOfflineEmbeddingModel(),
      });
      await admin.query("UPDATE city SET name = 'Lisbon'");
      const session = createPgExecutor(await sessionAs(first));
      const examples = async () =>
        (await prepareIndexedQuestion({ store, url: database.urlFor(first), session })).catalog?.tables.find(
          (table) => table.name === "city",
        )?.columns[0]?.sampleValues;
      expect(await examples()).toEqual(["Lisbon"]);
      await admin.query("UPDATE city SET name = 'Porto'");
      expect(await examples()).toEqual(["Lisbon"]);
    } finally {
      await store.close();
    }
  });
});
