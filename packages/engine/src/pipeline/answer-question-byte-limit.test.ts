import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import { mockTextModel } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

/** Issue 6, reproduction 6: twelve 100 MB rows came back whole. */
const hugeSql = "SELECT repeat('x', 100000000) AS blob FROM generate_series(1, 12)";

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase("nlq_byte_limit", "CREATE TABLE t (id integer)");
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe("answerQuestion with a byte cap (issue 6, reproduction 6)", () => {
  it("cuts the answer at NLQ_RESULT_BYTE_LIMIT while the rows stream in and says it was cut by bytes", async () => {
    const model = mockTextModel(JSON.stringify({ reasoning: "big", sql: hugeSql }));
    const answer = await answerQuestion({
      question: "show big blobs",
      session: createPgExecutor(client),
      settings: loadSettings({ NLQ_RESULT_BYTE_LIMIT: "250000000" }),
      resolveModel: () => ({ model, id: "mock:big", scripted: false }),
    });
    expect(answer).toMatchObject({ truncated: true, truncatedBy: "bytes" });
    expect(answer.result.rows).toHaveLength(2);
    expect(answer.result.command).toBe("SELECT 2");
    // The session is idle and usable: the cancelled statement left nothing behind.
    expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  }, 60_000);

  it("marks a row-cap cut as rows", async () => {
    const model = mockTextModel(JSON.stringify({ reasoning: "many", sql: "SELECT g FROM generate_series(1, 5) g" }));
    const answer = await answerQuestion({
      question: "numbers",
      session: createPgExecutor(client),
      settings: loadSettings({ NLQ_ROW_LIMIT: "3" }),
      resolveModel: () => ({ model, id: "mock:rows", scripted: false }),
    });
    expect(answer).toMatchObject({ truncated: true, truncatedBy: "rows" });
  });
});
