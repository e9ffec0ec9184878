import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedReadingText, confirmReading, pickedProvenance } from "./confirm-reading";
import { KnowledgeEntryError } from "./knowledge-errors";
import { KnowledgeStore } from "./knowledge-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { VerifiedExampleStore } from "./verified-example-store";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const dataSource = "127.0.0.1:5432/music";
const reading = {
  phrase: "name",
  chosen: { label: "singer.stage_name", elements: ["public.singer.stage_name"] },
  alternatives: [{ label: "singer.name", elements: ["public.singer.name"] }],
};
const confirm = (role: string, administrator: boolean, sql = "SELECT stage_name FROM singer") =>
  confirmReading({
    database: store.database,
    dataSource,
    editor: { role, administrator },
    question: "What are the singers' names?",
    sql,
    reading,
    readingsOffered: 2,
  });

describe("confirmReading", () => {
  it("stores the role's reading entry and a picked example, both saying who picked among how many", async () => {
    const { entry, example } = await confirm("alice", false);
    expect(entry).toMatchObject({
      kind: "reading",
      name: "name",
      text: '"name" means singer.stage_name, not singer.name.',
      references: ["public.singer.stage_name"],
      reading,
      origin: "reading",
      provenance: "picked from 2 readings by alice",
      author: "alice",
      sharedWithAllRoles: false,
    });
    expect(example).toMatchObject({
      question: "What are the singers' names?",
      sql: "SELECT stage_name FROM singer",
      source: "picked",
      provenance: "picked from 2 readings by alice",
      verifiedBy: "alice",
      sharedWithAllRoles: false,
    });
    expect(await new KnowledgeStore(store.database).visibleTo(dataSource, "bob")).toEqual([]);
    expect(await new VerifiedExampleStore(store.database).visibleTo(dataSource, "bob")).toEqual([]);

    // Confirming again replaces the role's earlier confirmation of that phrase and question.
    const again = await confirm("alice", false, "SELECT stage_name FROM singer ORDER BY 1");
    expect(again.entry.id).toBe(entry.id);
    expect(again.example.id).toBe(example.id);
    expect(again.example.sql).toBe("SELECT stage_name FROM singer ORDER BY 1");
  });

  it("shares an administrator's confirmation with every role", async () => {
    const { entry, example } = await confirm("admin", true);
    expect(entry.sharedWithAllRoles).toBe(true);
    expect(example.sharedWithAllRoles).toBe(true);
    expect((await new KnowledgeStore(store.database).visibleTo(dataSource, "bob")).map((row) => row.id)).toEqual([
      entry.id,
    ]);
  });

  it("stores nothing when the reading cannot be stored", async () => {
    await expect(
      confirmReading({
        database: store.database,
        dataSource,
        editor: { role: "carol", administrator: false },
        question: "Who sings?",
        sql: "SELECT 1",
        reading: { ...reading, chosen: { label: "stage name", elements: ["stage_name"] } },
        readingsOffered: 3,
      }),
    ).rejects.toSatisfy(KnowledgeEntryError.isInstance);
    const examples = await new VerifiedExampleStore(store.database).visibleTo(dataSource, "carol");
    expect(examples.filter((example) => example.verifiedBy === "carol")).toEqual([]);
    const entries = await new KnowledgeStore(store.database).visibleTo(dataSource, "carol");
    expect(entries.filter((entry) => entry.author === "carol")).toEqual([]);
  });

  it("words the provenance and the default text", () => {
    expect(pickedProvenance(1, "bob")).toBe("picked from 1 reading by bob");
    expect(confirmedReadingText({ ...reading, alternatives: [] })).toBe('"name" means singer.stage_name.');
  });
});
