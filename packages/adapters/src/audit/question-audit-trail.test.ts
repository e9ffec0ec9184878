import { randomBytes } from "node:crypto";
import { type Answer, NlqError } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createTestDatabase, dropTestRole, type TestDatabase, testServerUrl } from "../testing/test-database";
import { uncheckedAuditEntries as auditEntries } from "./audit-entries";
import { auditRowOf, type QuestionAsker } from "./audit-row";
import { dataSourceKey, dataSourceNames } from "./data-source-key";
import { QuestionAuditTrail } from "./question-audit-trail";
import { roleAuthority } from "./role-authority";

const shop = "127.0.0.1:5432/shop";
const alice: QuestionAsker = {
  surface: "proxy",
  role: "alice",
  dataSource: shop,
  clientAddress: "10.0.0.7",
  applicationName: "psql\u001b[31m",
};

function answer(overrides: Record<string, unknown> = {}): Answer {
  return {
    question: "how many customers?",
    sql: "SELECT count(*) FROM customers",
    result: { fields: [], rows: [["42"], ["secret row"]], command: "SELECT 2" },
    truncated: false,
    confidence: 0.67,
    selection: {
      selector: "self-consistency",
      candidates: 3,
      executed: 3,
      clusters: 2,
      chosenCluster: 0,
      basis: "2 of 3 candidates agree",
    },
    model: { id: "scripted:demo", scripted: true },
    candidates: [],
    calls: [],
    elapsedMilliseconds: 12.4,
    ...overrides,
  } as unknown as Answer;
}

let metadata: TestDatabase;
let store: MetadataStore;
beforeAll(async () => {
  metadata = await createTestDatabase("nlq_audit_store");
  store = await openMetadataStore({ url: metadata.url });
});
afterAll(async () => {
  await store?.close();
  await metadata?.drop();
});

describe("auditRowOf", () => {
  it("keeps counts, never rows: the answer's and each interpretation's (its difference recomputed without values)", () => {
    const row = auditRowOf(
      alice,
      "how many customers?",
      {
        answer: answer({
          interpretations: [
            {
              number: 1,
              chosen: true,
              sql: "SELECT count(*) FROM customers",
              support: 2,
              columns: ["count"],
              rows: [["42"]],
              rowCount: 1,
              truncated: false,
              difference: "the chosen reading",
            },
            {
              number: 2,
              chosen: false,
              sql: "SELECT count(DISTINCT email) FROM customers",
              support: 1,
              columns: ["count"],
              rows: [["40"]],
              rowCount: 1,
              truncated: false,
              difference: "count is 40 instead of 42",
            },
            "not an interpretation",
          ],
        }),
      },
      new Date(0),
    );
    expect(row).toMatchObject({
      rows: 2,
      ok: true,
      confidence: 0.67,
      confidenceBasis: "2 of 3 candidates agree",
      applicationName: "psql[31m",
    });
    expect(row.interpretations).toEqual([
      { sql: "SELECT count(*) FROM customers", support: 2, rows: 1, chosen: true, difference: "the chosen reading" },
      {
        sql: "SELECT count(DISTINCT email) FROM customers",
        support: 1,
        rows: 1,
        chosen: false,
        difference: expect.not.stringMatching(/40|42/),
      },
    ]);
    expect(JSON.stringify(row)).not.toContain("secret row");
    expect(JSON.stringify(row)).not.toContain("40");
  });

  it("records a typed error as told, anything else as a generic internal error", () => {
    const typed = auditRowOf(
      alice,
      "q",
      { error: new NlqError("permission denied for table x", { code: "42501" }) },
      new Date(),
    );
    expect(typed).toMatchObject({
      ok: false,
      sql: null,
      errorCode: "42501",
      errorMessage: "permission denied for table x",
    });
    const untyped = auditRowOf(alice, "q", { error: new Error("ECONNREFUSED 10.1.2.3:5432") }, new Date());
    expect(untyped).toMatchObject({ ok: false, errorCode: "XX000", errorMessage: "internal error" });
  });

  it("records a reading picked under an earlier answer: its SQL and row count, no confidence, who chose", () => {
    const row = auditRowOf(
      { ...alice, surface: "web" },
      "which carriers deliver late most often?",
      {
        pick: {
          sql: "SELECT carrier FROM shipments",
          rows: 4,
          truncated: false,
          number: 2,
          support: 1,
          outOf: 3,
          elapsedMilliseconds: 12.4,
        },
      },
      new Date(),
    );
    expect(row).toMatchObject({
      surface: "web",
      ok: true,
      sql: "SELECT carrier FROM shipments",
      rows: 4,
      truncated: false,
      confidence: null,
      confidenceBasis: "picked by the user: interpretation #2 (1 of 3 candidates returned it)",
      elapsedMilliseconds: 12,
    });
  });
});

describe("QuestionAuditTrail", () => {
  it("returns at once and writes in the background; entries are read per data source and role", async () => {
    const trail = new QuestionAuditTrail(store.database);
    const bob: QuestionAsker = { surface: "web", role: "bob", dataSource: shop };
    trail.record(alice, "alice's question", { answer: answer() }, new Date("2026-11-27T07:00:00Z"));
    trail.record(
      bob,
      "bob's question",
      { error: new NlqError("no", { code: "42501" }) },
      new Date("2026-11-27T07:01:00Z"),
    );
    trail.record({ ...alice, dataSource: "127.0.0.1:5432/other" }, "elsewhere", { answer: answer() });
    // Nothing was written synchronously: recording never waits for the store.
    expect(await auditEntries(store.database, { dataSource: shop, role: undefined, limit: 10 })).toEqual([]);
    expect(await trail.flush()).toBe(true);

    const all = await auditEntries(store.database, { dataSource: shop, role: undefined, limit: 10 });
    expect(all.map((entry) => entry.question)).toEqual(["bob's question", "alice's question"]);
    expect(all[1]).toMatchObject({
      role: "alice",
      surface: "proxy",
      clientAddress: "10.0.0.7",
      rows: 2,
      sql: "SELECT count(*) FROM customers",
    });
    const bobs = await auditEntries(store.database, { dataSource: shop, role: "bob", limit: 10 });
    expect(bobs.map((entry) => entry.question)).toEqual(["bob's question"]);
    const since = await auditEntries(store.database, {
      dataSource: shop,
      role: undefined,
      since: new Date("2026-11-27T07:00:30Z"),
      limit: 10,
    });
    expect(since.map((entry) => entry.role)).toEqual(["bob"]);
    expect(await auditEntries(store.database, { dataSource: shop, role: undefined, limit: 1 })).toHaveLength(1);
  });

  it("drops rows beyond its bound and logs a failed write instead of throwing", async () => {
    const messages: string[] = [];
    const failing = {
      insert: () => ({ values: async () => Promise.reject(new Error("store down")) }),
    } as unknown as MetadataStore["database"];
    const trail = new QuestionAuditTrail(failing, { maximumQueued: 2, logError: (message) => messages.push(message) });
    for (let index = 0; index < 5; index++) trail.record(alice, `q${index}`, { answer: answer() });
    expect(trail.dropped).toBe(3);
    expect(await trail.flush()).toBe(true);
    expect(messages).toEqual(["the audit trail's queue is full: 1 questions not audited", "cannot write 2 audit rows"]);
  });
});

describe("roleAuthority and dataSourceKey", () => {
  it("says who a connection is and whether it is an administrator (superuser or member of the admin role)", async () => {
    const suffix = randomBytes(4).toString("hex");
    const [plain, curator, curators] = [`audit_plain_${suffix}`, `audit_curator_${suffix}`, `audit_curators_${suffix}`];
    const admin = new pg.Client({ connectionString: testServerUrl });
    await admin.connect();
    try {
      await admin.query(
        `CREATE ROLE ${plain} LOGIN; CREATE ROLE ${curator} LOGIN; CREATE ROLE ${curators}; GRANT ${curators} TO ${curator}`,
      );
      const as = async (role: string) => {
        const url = new URL(testServerUrl);
        url.username = role;
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          return await roleAuthority(client, curators);
        } finally {
          await client.end();
        }
      };
      expect(await as(plain)).toMatchObject({ role: plain, administrator: false });
      expect(await as(curator)).toMatchObject({ role: curator, administrator: true });
      expect((await as(plain)).serverDataSource).toMatch(/^(127\.0\.0\.1|::1):\d+\/postgres$/);
      expect(await roleAuthority(admin, "none")).toMatchObject({ administrator: true });
    } finally {
      await admin.end();
      for (const role of [plain, curator, curators]) await dropTestRole(role);
    }
    expect(dataSourceKey("postgresql://alice:secret@db.example:6432/shop")).toBe("db.example:6432/shop");
    expect(dataSourceKey("postgresql://alice@db.example")).toBe("db.example:5432/alice");
    expect(dataSourceNames("postgresql://alice@db.example:6432/shop", "10.0.0.5:5432/shop")).toEqual([
      "db.example:6432/shop",
      "10.0.0.5:5432/shop",
    ]);
    expect(dataSourceNames("postgresql://alice@127.0.0.1:6432/shop", "127.0.0.1:5432/shop")).toEqual([
      "127.0.0.1:6432/shop",
      "127.0.0.1:5432/shop",
      "localhost:5432/shop",
      "::1:5432/shop",
    ]);
  });
});
