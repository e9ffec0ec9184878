import {
  KnowledgeStore,
  type MetadataStore,
  openMetadataStore,
  VerifiedExampleStore,
  WebThreadStore,
} from "@nlq/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerData } from "./chat-message";
import { confirmPickedReading } from "./confirm-picked-reading";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const max = { role: "max", dataSource: "127.0.0.1:5432/shop" };
const question = "which customers are from Berlin?";
const reading = {
  phrase: "Berlin",
  chosen: { label: "customers.city, exact", elements: ["public.customers.city"] },
  alternatives: [{ label: "customers.city, trimmed and case-insensitive", elements: ["public.customers.city"] }],
};
const answer = (withReading: boolean): AnswerData => ({
  question,
  sql: "SELECT * FROM customers WHERE lower(trim(city)) = 'berlin'",
  fields: [],
  rows: [],
  truncated: false,
  model: { id: "scripted:demo-model.json", scripted: true },
  elapsedMilliseconds: 1,
  candidates: 3,
  languageModelCalls: 3,
  interpretations: [
    {
      number: 1,
      chosen: true,
      sql: "SELECT * FROM customers WHERE lower(trim(city)) = 'berlin'",
      support: 2,
      outOf: 3,
      difference: "the chosen reading",
    },
    {
      number: 2,
      chosen: false,
      sql: "SELECT * FROM customers WHERE city = 'Berlin'",
      support: 1,
      outOf: 3,
      difference: "keeps fewer rows",
      ...(withReading ? { reading } : {}),
    },
  ],
});

async function storedTurn(owner: typeof max, reply: Record<string, unknown>) {
  const threads = new WebThreadStore(store.database);
  const thread = await threads.create(owner, question);
  return (await threads.appendTurn(owner, thread.id, { question, sql: "SELECT 1", reply }))!;
}

const confirm = (turnId: string, number: number, user = max, validated: string[] = []) =>
  confirmPickedReading({
    database: store.database,
    threads: new WebThreadStore(store.database),
    user,
    turnId,
    number,
    editor: async () => ({ role: user.role, administrator: false }),
    validate: async (sql) => {
      validated.push(sql);
      return sql;
    },
  });

describe("Use this from now on (web)", () => {
  it("stores the reading entry and a verified example picked from 2 readings by the role, from the stored answer", async () => {
    const turn = await storedTurn(max, { answer: answer(true) });
    const validated: string[] = [];
    const remembered = await confirm(turn.id, 2, max, validated);
    expect(remembered).toMatchObject({ kind: "reading", scope: "you" });
    expect(validated).toEqual(["SELECT * FROM customers WHERE city = 'Berlin'"]);
    const [example] = await new VerifiedExampleStore(store.database).visibleTo(max.dataSource, "max");
    expect(example).toMatchObject({
      question,
      sql: "SELECT * FROM customers WHERE city = 'Berlin'",
      source: "picked",
      provenance: "picked from 2 readings by max",
    });
    const entries = await new KnowledgeStore(store.database).visibleTo(max.dataSource, "max");
    expect(entries.map((entry) => [entry.kind, entry.name, entry.provenance])).toEqual([
      ["reading", "Berlin", "picked from 2 readings by max"],
    ]);
  });

  it("keeps the example alone when the readings differed in their SQL only", async () => {
    const other = { ...max, dataSource: "127.0.0.1:5432/other" };
    const turn = await storedTurn(other, { answer: answer(false) });
    expect(await confirm(turn.id, 2, other)).toMatchObject({ kind: "example", scope: "you" });
    expect(await new KnowledgeStore(store.database).visibleTo(other.dataSource, "max")).toEqual([]);
    expect((await new VerifiedExampleStore(store.database).visibleTo(other.dataSource, "max"))[0]?.provenance).toBe(
      "picked from 2 readings by max",
    );
  });

  it("confirms nothing of another role's turn, nor a reading its answer did not offer", async () => {
    const turn = await storedTurn(max, { answer: answer(true) });
    const bob = { role: "bob", dataSource: max.dataSource };
    expect(await confirm(turn.id, 2, bob)).toBeUndefined();
    expect(await new VerifiedExampleStore(store.database).visibleTo(max.dataSource, "bob")).toEqual([]);
    await expect(confirm(turn.id, 3)).rejects.toMatchObject({ code: "22023" });
  });
});
