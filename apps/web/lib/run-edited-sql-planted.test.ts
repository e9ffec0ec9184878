import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import {
  createTestDatabase,
  dropTestRole,
  type PlantedCodeWorld,
  plantCode,
  type TestDatabase,
} from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCsv } from "./export-csv";
import { runEditedSql } from "./run-edited-sql";

// Issue 25 on the web app's path for SQL a user edited (and its CSV export): the engine's validation refuses a SELECT
// of a view another role planted before it runs, naming the view, its owner and the function.
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const settings = loadSettings({ NLQ_ROW_LIMIT: "100" });
let database: TestDatabase;
let client: pg.Client;
let planted: PlantedCodeWorld;

beforeAll(async () => {
  database = await createTestDatabase("nlq_web_planted");
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`CREATE ROLE ${attacker} LOGIN`);
  planted = await plantCode(client, { attacker, database: database.name, suffix });
}, 60_000);

afterAll(async () => {
  await client?.end();
  await database?.drop();
  await dropTestRole(attacker);
});

describe("edited SQL reading planted code", () => {
  it("is refused, and neither the program nor the dblink write runs", async () => {
    const session = createPgExecutor(client);
    await expect(runEditedSql({ session, sql: "SELECT * FROM att.v_sales", settings })).rejects.toMatchObject({
      code: "25006",
      message: expect.stringContaining(`view att.v_sales (owner ${attacker}): its view body calls att.f()`),
    });
    await expect(
      exportCsv({ session, sql: "SELECT lower(amt) FROM att.ledger", settings, onDone: () => undefined }),
    ).rejects.toMatchObject({ code: "25006", message: expect.stringContaining("cast from att.money2 to text") });
    expect(planted.fileWritten()).toBe(false);
    expect(await planted.lootRows(client)).toEqual([]);
  });

  it("runs a view of a role NLQ_TRUSTED_OWNERS names, as a question's candidate would, and refuses it otherwise", async () => {
    await client.query(`CREATE FUNCTION att.harmless() RETURNS int LANGUAGE sql AS 'SELECT 7'`);
    await client.query(`ALTER FUNCTION att.harmless() OWNER TO ${attacker}`);
    await client.query(`CREATE VIEW att.v_seven AS SELECT att.harmless() AS seven`);
    await client.query(`ALTER VIEW att.v_seven OWNER TO ${attacker}`);
    const session = createPgExecutor(client);
    const sql = "SELECT seven FROM att.v_seven";
    await expect(runEditedSql({ session, sql, settings })).rejects.toMatchObject({ code: "25006" });
    const trusting = loadSettings({ NLQ_ROW_LIMIT: "100", NLQ_TRUSTED_OWNERS: attacker });
    const result = await runEditedSql({ session, sql, settings: trusting });
    expect(result.rows).toEqual([["7"]]);
    const stream = await exportCsv({ session, sql, settings: trusting, onDone: () => undefined });
    expect(await new Response(stream).text()).toContain("7");
  });
});
