import { NlqError } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { AuditAccessError, auditEntries } from "./audit-entries";
import type { QuestionAsker } from "./audit-row";
import { QuestionAuditTrail } from "./question-audit-trail";

const shop = "127.0.0.1:5432/shop";
const asker = (role: string, surface: QuestionAsker["surface"] = "web"): QuestionAsker => ({
  surface,
  role,
  dataSource: shop,
});
const alice = { role: "alice", administrator: false };
const auditor = { role: "auditor", administrator: true };

let metadata: TestDatabase;
let store: MetadataStore;
beforeAll(async () => {
  metadata = await createTestDatabase("nlq_audit_entries");
  store = await openMetadataStore({ url: metadata.url });
  const trail = new QuestionAuditTrail(store.database);
  const failed = { error: new NlqError("refused", { code: "42501" }) };
  trail.record(asker("alice"), "alice's question", failed, new Date("2026-11-27T07:00:00Z"));
  trail.record(asker("alice", "mcp"), "alice over mcp", failed, new Date("2026-11-27T07:01:00Z"));
  trail.record(asker("bob"), "bob's question", failed, new Date("2026-11-27T07:02:00Z"));
  expect(await trail.flush()).toBe(true);
});
afterAll(async () => {
  await store?.close();
  await metadata?.drop();
});

const questions = (entries: ReadonlyArray<{ question: string }>) => entries.map((entry) => entry.question);

describe("auditEntries decides what the asking role may see, for every surface", () => {
  it("gives a role that is not an administrator its own entries only, whatever it leaves out", async () => {
    expect(questions(await auditEntries(store.database, { asking: alice, dataSource: shop, limit: 10 }))).toEqual([
      "alice over mcp",
      "alice's question",
    ]);
    const own = await auditEntries(store.database, { asking: alice, role: "alice", dataSource: shop, limit: 10 });
    expect(questions(own)).toEqual(["alice over mcp", "alice's question"]);
    const mcp = await auditEntries(store.database, { asking: alice, surface: "mcp", dataSource: shop, limit: 10 });
    expect(questions(mcp)).toEqual(["alice over mcp"]);
  });

  it("refuses another role's entries to a role that is not an administrator, with 42501", async () => {
    const attempt = auditEntries(store.database, { asking: alice, role: "bob", dataSource: shop, limit: 10 });
    await expect(attempt).rejects.toBeInstanceOf(AuditAccessError);
    await expect(attempt).rejects.toMatchObject({
      code: "42501",
      role: "alice",
      asked: "bob",
      message: expect.stringContaining("alice may list only its own entries, not bob's"),
    });
  });

  it("gives an administrator every role's entries, or one role's", async () => {
    expect(questions(await auditEntries(store.database, { asking: auditor, dataSource: shop, limit: 10 }))).toEqual([
      "bob's question",
      "alice over mcp",
      "alice's question",
    ]);
    const bobs = await auditEntries(store.database, { asking: auditor, role: "bob", dataSource: shop, limit: 10 });
    expect(questions(bobs)).toEqual(["bob's question"]);
    const own = await auditEntries(store.database, { asking: auditor, role: "auditor", dataSource: shop, limit: 10 });
    expect(own).toEqual([]);
  });
});
