import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { WebThreadStore } from "./web-thread-store";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const alice = { role: "alice", dataSource: "127.0.0.1:5432/shop" };
const bob = { role: "bob", dataSource: "127.0.0.1:5432/shop" };
const aliceElsewhere = { role: "alice", dataSource: "127.0.0.1:5432/other" };

describe("WebThreadStore", () => {
  it("keeps each owner's threads with their turns in order, and nobody else's", async () => {
    const threads = new WebThreadStore(store.database);
    const thread = await threads.create(alice, "  how many   customers are there?  ");
    expect(thread.title).toBe("how many customers are there?");
    await threads.appendTurn(alice, thread.id, {
      question: "how many customers are there?",
      sql: "SELECT count(*) FROM customers",
      reply: { answer: { rows: [["42"]] } },
    });
    const second = await threads.appendTurn(alice, thread.id, {
      question: "and in Berlin?",
      reply: { error: { code: "22023" } },
    });
    expect(second?.position).toBe(1);
    const loaded = await threads.get(alice, thread.id);
    expect(loaded?.turns.map((turn) => [turn.position, turn.question, turn.sql])).toEqual([
      [0, "how many customers are there?", "SELECT count(*) FROM customers"],
      [1, "and in Berlin?", null],
    ]);
    expect(await threads.list(alice)).toMatchObject([{ id: thread.id, turns: 2 }]);

    // Another role, or the same role on another data source, sees nothing and changes nothing.
    expect(await threads.list(bob)).toEqual([]);
    expect(await threads.get(bob, thread.id)).toBeUndefined();
    expect(await threads.get(aliceElsewhere, thread.id)).toBeUndefined();
    expect(await threads.appendTurn(bob, thread.id, { question: "x", reply: {} })).toBeUndefined();
    expect(await threads.rename(bob, thread.id, "mine now")).toBe(false);
    expect(await threads.delete(bob, thread.id)).toBe(false);
    expect(await threads.setFeedback(bob, second!.id, "up")).toBeUndefined();
    expect(await threads.turn(bob, second!.id)).toBeUndefined();
    expect(await threads.turn(aliceElsewhere, second!.id)).toBeUndefined();
    expect(await threads.turn(alice, "not-a-uuid")).toBeUndefined();
    expect((await threads.turn(alice, second!.id))?.question).toBe("and in Berlin?");
    expect(await threads.get(alice, "not-a-uuid")).toBeUndefined();

    expect((await threads.setFeedback(alice, second!.id, "down"))?.feedback).toBe("down");
    expect(await threads.rename(alice, thread.id, "Customers")).toBe(true);
    expect((await threads.list(alice))[0]?.title).toBe("Customers");
    expect(await threads.delete(alice, thread.id)).toBe(true);
    expect(await threads.get(alice, thread.id)).toBeUndefined();
    expect(await threads.list(alice)).toEqual([]);
  });
});
