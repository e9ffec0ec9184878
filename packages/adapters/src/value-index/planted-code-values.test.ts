import { randomBytes } from "node:crypto";
import { runReadOnly } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countRowsExactly } from "../catalog-index/table-statistics";
import { createPgExecutor } from "../postgres/pg-executor";
import { type PlantedCodeWorld, plantCode } from "../testing/planted-code-world";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { BackgroundValueIndexes } from "./background-value-index";
import { fetchDistinctValues, indexDatabaseValues, UNSAFE_TABLE_REASON } from "./index-database-values";

/**
 * Issue 25, item 2: the value index (`nlq index`, the background build) and exact row counts never read a table whose
 * reading runs code another role planted — a column type's implicit cast to text, a row-level security policy.
 */
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const reader = `nlq_reader_${suffix}`;
let database: TestDatabase;
let admin: pg.Client;
let planted: PlantedCodeWorld;

beforeAll(async () => {
  database = await createTestDatabase("nlq_planted_index");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN; CREATE ROLE ${reader} LOGIN`);
  await admin.query("CREATE TABLE towns (id integer PRIMARY KEY, name text); INSERT INTO towns VALUES (1, 'Brest')");
  await admin.query(`GRANT SELECT ON towns TO ${reader}`);
  planted = await plantCode(admin, { attacker, database: database.name, suffix });
  await admin.query("ALTER TABLE att.accounts ADD COLUMN note text; UPDATE att.accounts SET note = 'north note'");
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await database?.drop();
  for (const role of [attacker, reader]) await dropTestRole(role);
});

beforeEach(async () => {
  await planted.reset(admin);
});

const ran = async () => planted.fileWritten() || (await planted.lootRows(admin)).length > 0;
const scope = { session: undefined as never, statementTimeoutMilliseconds: 5_000 };

describe("the value index and row counts skip tables whose reading runs planted code", () => {
  it("fetchDistinctValues and indexDatabaseValues read none of them, and say why", async () => {
    const session = createPgExecutor(admin);
    const readOnly = { ...scope, session };
    const values = await runReadOnly(readOnly, (query) =>
      fetchDistinctValues(
        { name: "scope", query: ({ sql }) => query(sql) },
        { schema: "att", table: "ledger", column: "amt" },
        10,
      ),
    );
    expect(values).toEqual([]);
    const outcomes = await runReadOnly(readOnly, (query) =>
      indexDatabaseValues({
        executor: { name: "scope", query: ({ sql }) => query(sql) },
        columns: [
          { schema: "att", table: "accounts", column: "note", dataType: "text" },
          { schema: "public", table: "towns", column: "name", dataType: "text" },
        ],
      }),
    );
    expect(outcomes.map((outcome) => (outcome.indexed ? "indexed" : outcome.reason))).toEqual([
      UNSAFE_TABLE_REASON,
      "indexed",
    ]);
    expect(await ran()).toBe(false);
  });

  it("countRowsExactly does not count a table whose row-level security policy was planted", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(reader) });
    await client.connect();
    try {
      const counts = await runReadOnly({ ...scope, session: createPgExecutor(client) }, async (query) => [
        await countRowsExactly(query, { schema: "att", name: "accounts" }),
        await countRowsExactly(query, { schema: "public", name: "towns" }),
      ]);
      expect(counts).toEqual([null, 1]);
      expect(await ran()).toBe(false);
      // The control: the same count without the check runs the policy's function as the reader.
      await runReadOnly({ ...scope, session: createPgExecutor(client) }, (query) =>
        query("SELECT count(*) FROM att.accounts"),
      );
      expect(await ran()).toBe(true);
    } finally {
      await client.end();
    }
  });

  it("the background build indexes the other tables only", async () => {
    const indexes = new BackgroundValueIndexes();
    const connect = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      return { executor: createPgExecutor(client), close: () => client.end() };
    };
    indexes.use("db", connect);
    await indexes.settled("db");
    const state = indexes.use("db", connect);
    expect(state.status).toBe("ready");
    const columns = (state.index?.columns ?? []).map((column) => column.table);
    expect(columns).toContain("towns");
    expect(columns).not.toContain("accounts");
    expect(await ran()).toBe(false);
  });
});
