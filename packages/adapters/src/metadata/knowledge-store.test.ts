import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { knowledgeEntryOf, knowledgeEntryView } from "./knowledge-entry-view";
import { KnowledgeConflictError, KnowledgeEntryError } from "./knowledge-errors";
import { KnowledgeStore } from "./knowledge-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";

const shop = "127.0.0.1:5432/shop";
const elsewhere = "127.0.0.1:5432/other";
const alice = { role: "alice", administrator: false };
const bob = { role: "bob", administrator: false };
const admin = { role: "admin", administrator: true };
const otherAdmin = { role: "root", administrator: true };

const activeCustomer = {
  dataSource: shop,
  kind: "term" as const,
  name: "active customer",
  text: "A customer with an order in the last 90 days.",
  references: ["public.customers", "public.orders.ordered_at"],
  origin: "manual" as const,
};

// The same behaviour on both drivers: in-process PGlite (tests, `directory`) and PostgreSQL (every deployment).
const drivers: Array<[string, () => Promise<{ store: MetadataStore; drop?: () => Promise<void> }>]> = [
  ["PGlite", async () => ({ store: await openMetadataStore({ directory: "memory://" }) })],
  [
    "PostgreSQL",
    async () => {
      const database: TestDatabase = await createTestDatabase("nlq_knowledge_store");
      return { store: await openMetadataStore({ url: database.url }), drop: () => database.drop() };
    },
  ],
];

describe.each(drivers)("KnowledgeStore on %s", (_driver, open) => {
  let store: MetadataStore;
  let drop: (() => Promise<void>) | undefined;
  let knowledge: KnowledgeStore;
  beforeAll(async () => {
    ({ store, drop } = await open());
    knowledge = new KnowledgeStore(store.database);
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  it("keeps a role's entry for that role only; the same kind and name replaces it, equal content changes nothing", async () => {
    const first = await knowledge.save(activeCustomer, alice);
    expect(first.action).toBe("created");
    expect(first.entry).toMatchObject({ author: "alice", sharedWithAllRoles: false, status: "active" });
    const again = await knowledge.save(
      { ...activeCustomer, name: " active customer ", text: `${activeCustomer.text} ` },
      alice,
    );
    expect(again.action).toBe("unchanged");
    expect(again.entry.id).toBe(first.entry.id);
    // Another spelling of the name is the same entry, renamed.
    const renamed = await knowledge.save({ ...activeCustomer, name: "Active  Customer" }, alice);
    expect(renamed).toMatchObject({ action: "updated", entry: { id: first.entry.id, name: "Active  Customer" } });
    const changed = await knowledge.save({ ...activeCustomer, text: "An order in the last 30 days." }, alice);
    expect(changed).toMatchObject({ action: "updated", entry: { id: first.entry.id } });
    // Bob's entry of the same name is his own: it neither replaces Alice's nor reaches her.
    const bobs = await knowledge.save({ ...activeCustomer, text: "Bob's definition" }, bob);
    expect(bobs.entry.id).not.toBe(first.entry.id);

    expect((await knowledge.visibleTo(shop, "alice")).map((row) => row.text)).toEqual([
      "An order in the last 30 days.",
    ]);
    expect((await knowledge.visibleTo(shop, "bob")).map((row) => row.text)).toEqual(["Bob's definition"]);
    expect(await knowledge.visibleTo(shop, "carol")).toEqual([]);
    expect(await knowledge.visibleTo(elsewhere, "alice")).toEqual([]);
    expect(await knowledge.find(shop, first.entry.id, bob)).toBeUndefined();
    expect(await knowledge.find(shop, first.entry.id, admin)).toBeUndefined();

    // Only the owner changes or removes a private entry, and only on its data source.
    expect(await knowledge.update(shop, first.entry.id, { text: "x" }, bob)).toBeUndefined();
    expect(await knowledge.update(shop, first.entry.id, { text: "x" }, admin)).toBeUndefined();
    expect(await knowledge.update(elsewhere, first.entry.id, { text: "x" }, alice)).toBeUndefined();
    expect(await knowledge.remove(shop, first.entry.id, admin)).toBe(false);
    expect(await knowledge.remove(shop, "not-a-uuid", alice)).toBe(false);
    expect(await knowledge.remove(shop, first.entry.id, alice)).toBe(true);
    expect(await knowledge.remove(shop, bobs.entry.id, bob)).toBe(true);
    expect(await knowledge.visibleTo(shop, "alice")).toEqual([]);
  });

  it("shares an administrator's entry with every role; administrators change shared entries, which become theirs", async () => {
    const { entry: shared } = await knowledge.save(
      { ...activeCustomer, kind: "metric", name: "net revenue", text: "Revenue net of refunds.", sql: "sum(amount)" },
      admin,
    );
    expect(shared).toMatchObject({ author: "admin", sharedWithAllRoles: true });
    expect((await knowledge.visibleTo(shop, "alice")).map((row) => row.id)).toEqual([shared.id]);
    expect(await knowledge.remove(shop, shared.id, alice)).toBe(false);
    expect(await knowledge.update(shop, shared.id, { text: "mine now" }, alice)).toBeUndefined();
    const edited = await knowledge.update(shop, shared.id, { text: "Revenue net of refunds and tax." }, otherAdmin);
    expect(edited).toMatchObject({ author: "root", sharedWithAllRoles: true, sql: "sum(amount)" });
    // A role that is no longer an administrator cannot change what it shared.
    expect(await knowledge.remove(shop, shared.id, { role: "root", administrator: false })).toBe(false);

    // Editing into a kind and name the editor already has is refused, not merged.
    const { entry: rootsOther } = await knowledge.save(
      { ...activeCustomer, kind: "metric", name: "gross revenue", text: "Before refunds." },
      otherAdmin,
    );
    await expect(knowledge.update(shop, rootsOther.id, { name: "Net Revenue" }, otherAdmin)).rejects.toSatisfy(
      KnowledgeConflictError.isInstance,
    );
    expect(await knowledge.remove(shop, shared.id, otherAdmin)).toBe(true);
    expect(await knowledge.remove(shop, rootsOther.id, otherAdmin)).toBe(true);
  });

  it("keeps a history of every change, readable by whoever may see the entry, also after its removal", async () => {
    const { entry } = await knowledge.save({ ...activeCustomer, name: "fiscal year", text: "Starts in April." }, alice);
    await knowledge.update(shop, entry.id, { text: "Starts on 1 April." }, alice);
    await knowledge.remove(shop, entry.id, alice);
    const history = await knowledge.history(shop, entry.id, alice);
    expect(history.map((row) => [row.action, row.changedBy, row.entry.text])).toEqual([
      ["created", "alice", "Starts in April."],
      ["updated", "alice", "Starts on 1 April."],
      ["removed", "alice", "Starts on 1 April."],
    ]);
    expect(await knowledge.history(shop, entry.id, bob)).toEqual([]);
    expect(await knowledge.history(shop, entry.id, admin)).toEqual([]);
    expect(await knowledge.history(elsewhere, entry.id, alice)).toEqual([]);
  });

  it("keeps suggestions out of every list until an administrator accepts them for every role", async () => {
    const suggestion = await knowledge.suggest(
      { ...activeCustomer, kind: "rule", name: "test accounts", text: "Exclude them.", sql: "is_test = false" },
      "bob",
    );
    expect(suggestion).toMatchObject({ status: "suggested", origin: "suggestion", author: "bob" });
    expect(await knowledge.visibleTo(shop, "bob")).toEqual([]);
    expect(await knowledge.visibleTo(shop, "admin")).toEqual([]);
    expect((await knowledge.suggestions(shop, bob)).map((row) => row.id)).toEqual([suggestion.id]);
    expect(await knowledge.suggestions(shop, alice)).toEqual([]);
    expect((await knowledge.suggestions(shop, admin)).map((row) => row.id)).toEqual([suggestion.id]);
    expect(await knowledge.find(shop, suggestion.id, alice)).toBeUndefined();
    expect(knowledgeEntryView((await knowledge.find(shop, suggestion.id, admin))!, "admin")).toMatchObject({
      yours: false,
      suggested: true,
    });

    // Neither the proposer nor another ordinary role may accept; the proposer may withdraw.
    expect(await knowledge.accept(shop, suggestion.id, bob)).toBeUndefined();
    const accepted = await knowledge.accept(shop, suggestion.id, admin);
    expect(accepted).toMatchObject({
      id: suggestion.id,
      status: "active",
      author: "admin",
      sharedWithAllRoles: true,
      suggestedBy: "bob",
    });
    expect((await knowledge.visibleTo(shop, "alice")).map((row) => row.id)).toEqual([suggestion.id]);
    expect((await knowledge.history(shop, suggestion.id, alice)).map((row) => row.action)).toEqual([
      "suggested",
      "accepted",
    ]);
    expect(await knowledge.accept(shop, suggestion.id, admin)).toBeUndefined();

    // A suggestion of a name the administrator already has replaces that entry's content.
    const second = await knowledge.suggest(
      { ...activeCustomer, kind: "rule", name: "Test Accounts", text: "v2" },
      "alice",
    );
    const merged = await knowledge.accept(shop, second.id, admin);
    expect(merged).toMatchObject({ id: suggestion.id, text: "v2", suggestedBy: "alice" });
    expect(await knowledge.suggestions(shop, admin)).toEqual([]);

    const withdrawn = await knowledge.suggest({ ...activeCustomer, name: "churn", text: "No order in a year." }, "bob");
    expect(await knowledge.reject(shop, withdrawn.id, alice)).toBe(false);
    expect(await knowledge.reject(shop, withdrawn.id, bob)).toBe(true);
    const rejected = await knowledge.suggest({ ...activeCustomer, name: "churn", text: "No order in a year." }, "bob");
    expect(await knowledge.reject(shop, rejected.id, admin)).toBe(true);
    expect(await knowledge.suggestions(shop, admin)).toEqual([]);
    expect(await knowledge.remove(shop, suggestion.id, admin)).toBe(true);
  });

  it("syncs an import: saves each entry and, asked to, removes the editor's entries of that origin it no longer holds", async () => {
    const dbt = (name: string, text: string) => ({
      kind: "description" as const,
      name,
      text,
      references: [name],
      externalId: `model.shop.${name}`,
    });
    const first = await knowledge.sync(
      shop,
      "dbt",
      [dbt("public.orders", "One row per order."), dbt("public.customers", "One row per customer.")],
      admin,
      { removeMissing: true },
    );
    expect(first).toEqual({ created: 2, updated: 0, unchanged: 0, removed: 0 });
    // A hand-written entry and another role's dbt import are not the import's to remove.
    await knowledge.save({ ...activeCustomer, name: "kept", text: "Written by hand." }, admin);
    await knowledge.sync(shop, "dbt", [dbt("public.orders", "Alice's copy.")], alice, { removeMissing: true });
    const second = await knowledge.sync(shop, "dbt", [dbt("public.orders", "One row per placed order.")], admin, {
      removeMissing: true,
    });
    expect(second).toEqual({ created: 0, updated: 1, unchanged: 0, removed: 1 });
    expect((await knowledge.visibleTo(shop, "admin")).map((row) => row.name).sort()).toEqual(["kept", "public.orders"]);
    expect((await knowledge.visibleTo(shop, "alice")).map((row) => row.text).sort()).toEqual([
      "Alice's copy.",
      "One row per placed order.",
      "Written by hand.",
    ]);
    // An import with one bad entry writes nothing.
    await expect(
      knowledge.sync(shop, "dbt", [dbt("public.payments", "ok"), dbt("public.refunds", "")], admin, {
        removeMissing: true,
      }),
    ).rejects.toSatisfy(KnowledgeEntryError.isInstance);
    expect((await knowledge.visibleTo(shop, "admin")).map((row) => row.name).sort()).toEqual(["kept", "public.orders"]);
  });

  it("refuses content it cannot store, naming the field", async () => {
    const refused = async (change: Record<string, unknown>) => {
      try {
        await knowledge.save({ ...activeCustomer, ...change } as typeof activeCustomer, alice);
      } catch (error) {
        if (KnowledgeEntryError.isInstance(error)) return error.field;
        throw error;
      }
      return undefined;
    };
    expect(await refused({ kind: "opinion" })).toBe("kind");
    expect(await refused({ name: "  " })).toBe("name");
    expect(await refused({ name: "two\nlines" })).toBe("name");
    expect(await refused({ text: "x".repeat(4_001) })).toBe("text");
    expect(await refused({ text: "bell\u0007" })).toBe("text");
    expect(await refused({ references: ["orders"] })).toBe("references");
    expect(await refused({ references: ["a.b.c.d"] })).toBe("references");
    expect(await refused({ kind: "reading" })).toBe("reading");
    expect(await refused({ reading: { phrase: "name", chosen: { label: "x", elements: [] }, alternatives: [] } })).toBe(
      "reading",
    );
    expect(await refused({ origin: "telepathy" })).toBe("origin");
    // SQL decides which roles an entry reaches: SQL PostgreSQL cannot parse would hide it from everyone.
    expect(await refused({ sql: "sum(amount" })).toBe("sql");
    expect(await refused({ sql: "{{ ref('orders') }}.amount" })).toBe("sql");
    expect((await knowledge.visibleTo(shop, "alice")).filter((row) => row.author === "alice")).toHaveLength(1);
  });

  it("hands the engine an entry without its author, and a screen one without another role's name", async () => {
    const { entry } = await knowledge.save(
      {
        ...activeCustomer,
        kind: "reading",
        name: "name",
        text: "“name” means the singer's stage name.",
        references: [],
        reading: {
          phrase: "name",
          chosen: { label: "singer.stage_name", elements: ["public.singer.stage_name"] },
          alternatives: [{ label: "singer.name", elements: ["public.singer.name"] }],
        },
        origin: "reading",
        provenance: "picked from 2 readings by admin",
      },
      admin,
    );
    const forEngine = knowledgeEntryOf(entry);
    expect(forEngine).toMatchObject({ kind: "reading", sharedWithAllRoles: true, references: [] });
    expect(JSON.stringify(forEngine)).not.toContain("admin");
    expect(knowledgeEntryView(entry, "alice")).toMatchObject({ yours: false, shared: true });
    expect(JSON.stringify(knowledgeEntryView(entry, "alice"))).not.toContain("by admin");
    expect(knowledgeEntryView(entry, "admin")).toMatchObject({
      yours: true,
      provenance: "picked from 2 readings by admin",
    });
  });
});
