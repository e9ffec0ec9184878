import { countColumns, introspectCatalog, loadSettings, runReadOnly } from "@nlq/engine";
import { recordingStepContext } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { prepareUnindexedQuestion } from "./prepare-indexed-question";

// Twelve tables of twelve columns (144 columns): above a threshold of 60, a database nothing is indexed for must not
// reach the prompt whole; it is narrowed and selected as an indexed one would be.
const topics = [
  "ship",
  "harbour",
  "voyage",
  "crew",
  "freight",
  "invoice",
  "patient",
  "doctor",
  "ward",
  "loan",
  "branch",
  "teller",
];
const setup = topics
  .map(
    (topic) =>
      `CREATE TABLE ${topic} (${topic}_id integer PRIMARY KEY, ${Array.from({ length: 11 }, (_, index) => `${topic}_note_${index} text`).join(", ")});`,
  )
  .join("\n");

describe("a large database nothing is indexed for", () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase("nlq_unindexed_cap");
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(setup);
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("is narrowed by retrieval and the CHESS steps above NLQ_SCHEMA_SELECTION_MIN_COLUMNS, shown whole below", async () => {
    const session = createPgExecutor(client);
    const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 10_000 }, (query) =>
      introspectCatalog(query),
    );
    expect(countColumns(catalog)).toBe(144);
    const question = "Which harbour did each voyage of the ship leave from?";
    const ask = async (minimum: string) => {
      const settings = loadSettings({
        NLQ_SCHEMA_SELECTION_MIN_COLUMNS: minimum,
        NLQ_SCHEMA_SELECTION: "select-tables",
      });
      const { schemaSelector } = await prepareUnindexedQuestion({ session, settings });
      const { context, calls } = recordingStepContext(question, (call) =>
        call.step === "select-tables"
          ? JSON.stringify({
              chain_of_thought_reasoning: "",
              table_names: ["public.voyage", "public.ship", "public.harbour"],
            })
          : "{}",
      );
      const selected = await schemaSelector!.select({ catalog, context: { ...context, settings } });
      return {
        tables: selected.catalog.tables.map((table) => table.name).sort(),
        steps: calls.map((call) => call.step),
      };
    };
    const capped = await ask("60");
    expect(capped.steps).toContain("select-tables");
    expect(capped.tables).toEqual(["harbour", "ship", "voyage"]);
    const whole = await ask("200");
    expect(whole.steps).not.toContain("select-tables");
    expect(whole.tables).toHaveLength(12);
  }, 60_000);
});
