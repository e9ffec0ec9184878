import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { maximumListedQuestionLength, WebThreadStore } from "./web-thread-store";

let store: MetadataStore;
beforeAll(async () => {
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(() => store?.close());

const carol = { role: "carol", dataSource: "127.0.0.1:5432/shop" };
const dave = { role: "dave", dataSource: "127.0.0.1:5432/shop" };

describe("WebThreadStore list: the questions of each thread", () => {
  it("lists every question of the owner's threads in order, cut, and none for a thread without turns", async () => {
    const threads = new WebThreadStore(store.database);
    const thread = await threads.create(carol, "how many customers are there?");
    const empty = await threads.create(carol, "nothing asked yet");
    const long = `which products ${"sell ".repeat(200)}`;
    for (const question of ["how many customers are there?", "and in Berlin?", long]) {
      await threads.appendTurn(carol, thread.id, { question, reply: {} });
    }
    const listed = await threads.list(carol);
    const withTurns = listed.find((summary) => summary.id === thread.id);
    expect(withTurns?.questions).toEqual([
      "how many customers are there?",
      "and in Berlin?",
      long.slice(0, maximumListedQuestionLength),
    ]);
    expect(listed.find((summary) => summary.id === empty.id)?.questions).toEqual([]);
    // Another role's list holds none of them.
    await threads.create(dave, "dave's own");
    expect((await threads.list(dave)).flatMap((summary) => summary.questions)).toEqual([]);
  });
});
