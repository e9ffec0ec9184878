import {
  type AuditedOutcome,
  type MetadataStore,
  openMetadataStore,
  type QuestionAsker,
  VerifiedExampleStore,
  WebThreadStore,
} from "@nlq/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickReading } from "./pick-reading";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const max = { role: "max", dataSource: "127.0.0.1:5432/shop" };
const question = "which carriers deliver late most often?";
const byShare = "SELECT carrier, late_percent FROM late_share";
const byCount = "SELECT carrier, late_shipments FROM late_count";
const reply = {
  answer: {
    question,
    sql: byShare,
    interpretations: [
      { number: 1, chosen: true, sql: byShare, support: 2, outOf: 3, difference: "the chosen reading" },
      { number: 2, chosen: false, sql: byCount, support: 1, outOf: 3, difference: "ranks by count" },
    ],
  },
};

function pick(turnId: string, number: number, user = max) {
  const ran: string[] = [];
  const audited: Array<{ asker: QuestionAsker; question: string; outcome: AuditedOutcome }> = [];
  const picked = pickReading({
    threads: new WebThreadStore(store.database),
    user,
    turnId,
    number,
    run: async (sql) => {
      ran.push(sql);
      return { sql, fields: [], rows: [["DHL", "41"]], offset: 0, truncated: false, totalRows: 4 };
    },
    audit: {
      trail: { record: (asker, asked, outcome) => audited.push({ asker, question: asked, outcome }) },
      asker: { surface: "web", role: user.role, dataSource: user.dataSource },
    },
  });
  return { picked, ran, audited };
}

describe("picking a reading in the web app", () => {
  it("runs the stored reading's SQL and keeps only the audit entry", async () => {
    const threads = new WebThreadStore(store.database);
    const thread = await threads.create(max, question);
    const turn = await threads.appendTurn(max, thread.id, { question, sql: byShare, reply });
    const { picked, ran, audited } = pick(turn!.id, 2);
    expect((await picked)?.rows).toEqual([["DHL", "41"]]);
    expect(ran).toEqual([byCount]);
    expect(audited).toEqual([
      {
        asker: { surface: "web", role: "max", dataSource: max.dataSource },
        question,
        outcome: {
          pick: expect.objectContaining({ sql: byCount, rows: 4, number: 2, support: 1, outOf: 3, truncated: false }),
        },
      },
    ]);
    // Nothing in the role's name: no verified example, for prompts or /examples.
    expect(await new VerifiedExampleStore(store.database).visibleTo(max.dataSource, "max")).toEqual([]);

    // Another role's turn runs nothing; a reading the answer did not offer is refused.
    const other = pick(turn!.id, 2, { role: "bob", dataSource: max.dataSource });
    expect(await other.picked).toBeUndefined();
    expect(other.ran).toEqual([]);
    await expect(pick(turn!.id, 3).picked).rejects.toMatchObject({ code: "22023" });
  });
});
