import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { metadataMigrationsFolder } from "./migrations-folder";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { verifiedExamples } from "./schema/verified-examples";
import { VerifiedExampleStore } from "./verified-example-store";
import { WebThreadStore } from "./web-thread-store";

// Migration 0010 over pairs saved the way the web app saved them before issue 28: a pick of a reading was stored as
// an 'accepted' pair without a turn. The migration's SQL runs again here over such rows (the store opened at 0010
// already, so the rows stand for a database upgraded from before it).
const migrationSql = readFileSync(`${metadataMigrationsFolder(undefined)}/0010_relabel-saved-picks.sql`, "utf8");

let database: TestDatabase;
let store: MetadataStore;
beforeAll(async () => {
  database = await createTestDatabase("nlq_relabel_picks");
  store = await openMetadataStore({ url: database.url });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const dataSource = "127.0.0.1:5432/shop";
const max = { role: "max", dataSource };
const question = "which customers are from Berlin?";
const exact = "SELECT customer_id FROM customers WHERE city = 'Berlin'";
const trimmed = "SELECT customer_id FROM customers WHERE lower(btrim(city)) = 'berlin'";

async function runMigration() {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const statement of migrationSql.split("--> statement-breakpoint")) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe("migration 0010: the picks saved automatically", () => {
  it("relabels a pick told apart by its turn, keeps the rest out of prompts, and leaves thumbs-ups alone", async () => {
    const threads = new WebThreadStore(store.database);
    const examples = new VerifiedExampleStore(store.database);
    const thread = await threads.create(max, question);
    const turn = await threads.appendTurn(max, thread.id, {
      question,
      sql: trimmed,
      reply: {
        answer: {
          question,
          sql: trimmed,
          interpretations: [
            { number: 1, chosen: true, sql: trimmed, support: 2, outOf: 3, difference: "the chosen reading" },
            { number: 2, chosen: false, sql: `${exact};`, support: 1, outOf: 3, difference: "keeps fewer rows" },
          ],
        },
      },
    });
    // The automatic pick (no turn), a thumbs-up (its turn), a turnless pair no turn explains, a correction.
    const pick = await examples.save({ dataSource, question, sql: exact, source: "accepted", verifiedBy: "max" });
    const thumbsUp = await examples.save({
      dataSource,
      question,
      sql: trimmed,
      source: "accepted",
      verifiedBy: "alice",
      turnId: turn!.id,
    });
    const unexplained = await examples.save({
      dataSource,
      question: "how many customers are there?",
      sql: "SELECT count(*) FROM customers",
      source: "accepted",
      verifiedBy: "max",
    });
    const corrected = await examples.save({
      dataSource,
      question: "how many orders?",
      sql: "SELECT count(*) FROM orders",
      source: "corrected",
      verifiedBy: "max",
    });

    await runMigration();

    const rows = await store.database.select().from(verifiedExamples);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(pick.id)).toMatchObject({ source: "picked", provenance: "picked from 2 readings by max" });
    expect(byId.get(thumbsUp.id)).toMatchObject({ source: "accepted", provenance: null });
    expect(byId.get(unexplained.id)?.source).toBe("unconfirmed");
    expect(byId.get(corrected.id)).toMatchObject({ source: "corrected", provenance: null });
    // What reaches max's prompts and lists: the relabelled pick and the correction, never the unconfirmed pair.
    expect((await examples.visibleTo(dataSource, "max")).map((row) => row.id).sort()).toEqual(
      [pick.id, corrected.id].sort(),
    );
  });
});
