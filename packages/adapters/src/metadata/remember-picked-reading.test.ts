import type { Answer, Interpretation } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeStore } from "./knowledge-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { rememberPickedReading } from "./remember-picked-reading";
import { VerifiedExampleStore } from "./verified-example-store";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const dataSource = "127.0.0.1:5432/music";
const stageName = { label: "singer.performer_name", elements: ["public.singer.performer_name"] };
const legalName = { label: "singer.artist_name", elements: ["public.singer.artist_name"] };

function interpretation(number: number, chosen: boolean, sql: string, withReading: boolean): Interpretation {
  return {
    number,
    chosen,
    sql,
    support: 1,
    share: 0.5,
    columns: ["name"],
    rows: [],
    rowCount: 0,
    truncated: false,
    difference: chosen ? "the picked reading" : "…",
    ...(withReading
      ? {
          reading:
            number === 1
              ? { phrase: "name", chosen: legalName, alternatives: [stageName] }
              : { phrase: "name", chosen: stageName, alternatives: [legalName] },
        }
      : {}),
  };
}

/** A picked answer as `answerWithInterpretation` returns it (#2 chosen). */
function pickedAnswer(question: string, withReading: boolean): Answer {
  return {
    question,
    sql: "SELECT performer_name FROM singer",
    result: { fields: [], rows: [], command: "SELECT 0" },
    truncated: false,
    selection: { selector: "user", candidates: 2, executed: 2, clusters: 2, chosenCluster: 1, basis: "picked" },
    interpretations: [
      interpretation(1, false, "SELECT artist_name FROM singer", withReading),
      interpretation(2, true, "SELECT performer_name FROM singer", withReading),
    ],
    model: { id: "mock:model", scripted: false },
    candidates: [],
    calls: [],
    elapsedMilliseconds: 1,
  };
}

describe("rememberPickedReading", () => {
  it("confirms a reading of a phrase: a knowledge entry and a picked example, the role's own", async () => {
    const remembered = await rememberPickedReading({
      database: store.database,
      dataSource,
      editor: { role: "alice", administrator: false },
      answer: pickedAnswer("Who are the singers?", true),
    });
    expect(remembered).toMatchObject({ kind: "reading", scope: "you" });
    expect(remembered.message).toBe(
      `remembered for you: "name" means singer.performer_name, not singer.artist_name. Later questions that hinge on "name" follow it without asking (knowledge entry ${remembered.entryId}).`,
    );
    const [entry] = await new KnowledgeStore(store.database).visibleTo(dataSource, "alice");
    expect(entry).toMatchObject({ kind: "reading", reading: { phrase: "name", chosen: stageName }, author: "alice" });
    const [example] = await new VerifiedExampleStore(store.database).visibleTo(dataSource, "alice");
    expect(example).toMatchObject({ source: "picked", sql: "SELECT performer_name FROM singer" });
    expect(await new KnowledgeStore(store.database).visibleTo(dataSource, "bob")).toEqual([]);
  });

  it("keeps an administrator's for every role, and a reading without a phrase as the example alone", async () => {
    const remembered = await rememberPickedReading({
      database: store.database,
      dataSource: "127.0.0.1:5432/other",
      editor: { role: "admin", administrator: true },
      answer: pickedAnswer("How many singers?", false),
    });
    expect(remembered).toMatchObject({ kind: "example", scope: "every role" });
    expect(remembered.entryId).toBeUndefined();
    expect(await new KnowledgeStore(store.database).visibleTo("127.0.0.1:5432/other", "bob")).toEqual([]);
    const [example] = await new VerifiedExampleStore(store.database).visibleTo("127.0.0.1:5432/other", "bob");
    expect(example).toMatchObject({
      source: "picked",
      sharedWithAllRoles: true,
      provenance: "picked from 2 readings by admin",
    });
  });

  it("refuses an answer with no picked interpretation", async () => {
    const { interpretations: _none, ...plain } = pickedAnswer("Who?", true);
    await expect(
      rememberPickedReading({
        database: store.database,
        dataSource,
        editor: { role: "alice", administrator: false },
        answer: plain,
      }),
    ).rejects.toMatchObject({ code: "22023" });
  });
});
