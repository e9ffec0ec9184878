// A separate nlq-like process for shared-embedded-store.test.ts: opens the default metadata store of the NLQ_HOME
// given as its argument (the embedded PostgreSQL, started or joined), then obeys one command per stdin line:
// `record <question>` logs a question, `count` prints how many are logged, `close` closes the store and exits,
// `exit` exits at once without closing it (as process.exit after an error would).
import { createInterface } from "node:readline";
import { openMetadataStore } from "./open-metadata-store";

const home = process.argv[2];
const store = await openMetadataStore({ settings: { home } });
process.stdout.write("open\n");

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...rest] = line.split(" ");
  try {
    if (command === "record") {
      await store.queryLog.record({
        question: rest.join(" "),
        sql: null,
        ok: true,
        confidence: null,
        rows: null,
        model: null,
        scripted: false,
        candidates: [],
        calls: [],
        elapsedMilliseconds: 1,
        origin: "cli",
      });
      process.stdout.write("recorded\n");
    } else if (command === "count") {
      process.stdout.write(`count ${(await store.queryLog.recentQueries(1000)).length}\n`);
    } else if (command === "exit") {
      process.exit(3);
    } else if (command === "close") {
      await store.close();
      process.stdout.write("closed\n");
      process.exit(0);
    }
  } catch (error) {
    process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
