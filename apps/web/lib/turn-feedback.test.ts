import { type MetadataStore, openMetadataStore, VerifiedExampleStore, WebThreadStore } from "@nlq/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTurnFeedback } from "./turn-feedback";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const analyst = { role: "analyst_a", dataSource: "127.0.0.1:5432/shop" };

async function answeredTurn(question: string, sql: string) {
  const threads = new WebThreadStore(store.database);
  const thread = await threads.create(analyst, question);
  const turn = await threads.appendTurn(analyst, thread.id, { question, sql, reply: {} });
  return turn!.id;
}

function feedback(turnId: string, value: "up" | "down" | null, administrator = false) {
  return applyTurnFeedback({
    threads: new WebThreadStore(store.database),
    examples: new VerifiedExampleStore(store.database),
    user: analyst,
    turnId,
    feedback: value,
    administrator: async () => administrator,
  });
}

const visible = async (role: string) =>
  (await new VerifiedExampleStore(store.database).visibleTo(analyst.dataSource, role)).map((row) => row.sql);

describe("applyTurnFeedback", () => {
  it("a thumbs-up saves the role's own example and a thumbs-down retracts it", async () => {
    const turn = await answeredTurn("how many orders?", "SELECT count(*) FROM orders");
    const up = await feedback(turn, "up");
    expect(up).toMatchObject({ feedback: "up", verifiedExampleId: expect.any(String) });
    expect(await visible("analyst_a")).toEqual(["SELECT count(*) FROM orders"]);
    expect(await visible("analyst_b")).toEqual([]);
    expect(await feedback(turn, "down")).toEqual({ feedback: "down", retracted: true });
    expect(await visible("analyst_a")).toEqual([]);
  });

  it("taking a thumbs-up back retracts too; an administrator's thumbs-up is shared", async () => {
    const turn = await answeredTurn("how many stores?", "SELECT count(*) FROM stores");
    await feedback(turn, "up", true);
    expect(await visible("analyst_b")).toEqual(["SELECT count(*) FROM stores"]);
    expect(await feedback(turn, null)).toEqual({ feedback: null, retracted: true });
    expect(await visible("analyst_b")).toEqual([]);
    expect(await feedback("00000000-0000-4000-8000-000000000000", "down")).toBeUndefined();
  });
});
