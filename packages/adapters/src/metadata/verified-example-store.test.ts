import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { VerifiedExampleStore } from "./verified-example-store";
import { WebThreadStore } from "./web-thread-store";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const shop = "127.0.0.1:5432/shop";
const elsewhere = "127.0.0.1:5432/other";
const alice = { role: "alice", administrator: false };
const bob = { role: "bob", administrator: false };
const admin = { role: "admin", administrator: true };

describe("VerifiedExampleStore", () => {
  it("keeps one pair per role, question and data source, visible to its owner only", async () => {
    const examples = new VerifiedExampleStore(store.database);
    const first = await examples.save({
      dataSource: shop,
      question: "how many customers are there?",
      sql: "SELECT count(*) FROM customers",
      source: "accepted",
      verifiedBy: "alice",
    });
    const replaced = await examples.save({
      dataSource: shop,
      question: "how many customers are there? ",
      sql: "SELECT count(*) AS customers FROM customers",
      source: "corrected",
      verifiedBy: "alice",
    });
    expect(replaced.id).toBe(first.id);
    // Bob's pair for the same question is his own: it neither replaces Alice's nor reaches her.
    const bobs = await examples.save({
      dataSource: shop,
      question: "how many customers are there?",
      sql: "SELECT 1",
      source: "accepted",
      verifiedBy: "bob",
    });
    expect(bobs.id).not.toBe(first.id);
    expect(await examples.visibleTo(shop, "alice")).toMatchObject([
      { question: "how many customers are there?", sql: "SELECT count(*) AS customers FROM customers" },
    ]);
    expect((await examples.visibleTo(shop, "bob")).map((row) => row.sql)).toEqual(["SELECT 1"]);
    expect(await examples.visibleTo(shop, "carol")).toEqual([]);
    expect(await examples.visibleTo(elsewhere, "alice")).toEqual([]);

    // Only the owner changes or deletes a private pair.
    expect(await examples.update(shop, first.id, { question: "q", sql: "s" }, bob)).toBeUndefined();
    expect(await examples.update(shop, first.id, { question: "q", sql: "s" }, admin)).toBeUndefined();
    expect(await examples.delete(shop, first.id, admin)).toBe(false);
    expect(await examples.update(elsewhere, first.id, { question: "q", sql: "s" }, alice)).toBeUndefined();
    expect(
      await examples.update(shop, first.id, { question: "count the customers", sql: "SELECT 2" }, alice),
    ).toMatchObject({ question: "count the customers", source: "corrected", sharedWithAllRoles: false });
    expect(await examples.delete(shop, first.id, bob)).toBe(false);
    expect(await examples.delete(shop, first.id, alice)).toBe(true);
    expect(await examples.delete(shop, bobs.id, bob)).toBe(true);
    expect(await examples.visibleTo(shop, "alice")).toEqual([]);
  });

  it("shares an administrator's pair with every role; administrators change shared pairs", async () => {
    const examples = new VerifiedExampleStore(store.database);
    const shared = await examples.save({
      dataSource: shop,
      question: "orders per store",
      sql: "SELECT store_id, count(*) FROM orders GROUP BY 1",
      source: "accepted",
      verifiedBy: "admin",
      sharedWithAllRoles: true,
    });
    expect((await examples.visibleTo(shop, "alice")).map((row) => row.id)).toEqual([shared.id]);
    expect(await examples.delete(shop, shared.id, alice)).toBe(false);
    const edited = await examples.update(
      shop,
      shared.id,
      { question: "orders by store", sql: "SELECT 3" },
      {
        role: "second_admin",
        administrator: true,
      },
    );
    expect(edited).toMatchObject({ verifiedBy: "second_admin", sharedWithAllRoles: true, source: "admin" });
    expect(await examples.delete(shop, shared.id, admin)).toBe(true);
  });

  it("retracts the pair a thumbs-up on a turn saved, and only that one", async () => {
    const threads = new WebThreadStore(store.database);
    const owner = { role: "alice", dataSource: shop };
    const thread = await threads.create(owner, "how many orders?");
    const turn = await threads.appendTurn(owner, thread.id, {
      question: "how many orders?",
      sql: "SELECT count(*) FROM orders",
      reply: {},
    });
    const examples = new VerifiedExampleStore(store.database);
    await examples.save({
      dataSource: shop,
      question: "how many orders?",
      sql: "SELECT count(*) FROM orders",
      source: "accepted",
      verifiedBy: "alice",
      turnId: turn!.id,
    });
    expect(await examples.retractAccepted(shop, "bob", turn!.id)).toBe(0);
    expect(await examples.retractAccepted(elsewhere, "alice", turn!.id)).toBe(0);
    expect(await examples.visibleTo(shop, "alice")).toHaveLength(1);
    expect(await examples.retractAccepted(shop, "alice", turn!.id)).toBe(1);
    expect(await examples.visibleTo(shop, "alice")).toEqual([]);
    expect(await examples.retractAccepted(shop, "alice", "not-a-uuid")).toBe(0);
  });
});
