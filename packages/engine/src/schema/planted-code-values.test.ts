import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import {
  createTestDatabase,
  dropTestRole,
  type PlantedCodeWorld,
  plantCode,
  type TestDatabase,
} from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { introspectCatalog } from "../catalog/introspect-catalog";
import type { QueryExecutor } from "../database/query-executor";
import { runReadOnly } from "../database/read-only-session";
import { createLiveValueLookup } from "../retrieval/values/live-value-lookup";
import { visibleValues } from "../retrieval/values/visible-values";
import { fetchSampleValues } from "./sample-values";

/**
 * Issue 25, item 2: nlq's own reads of data values (sample values, value probes, the live value lookup) never read a
 * table whose reading runs code another role planted: a column type's implicit cast to text (`att.ledger.amt`, read
 * as `amt::text` by a value probe) or a row-level security policy (`att.accounts`, which runs for every role but a
 * superuser). Without the check each of them ran the planted function, which writes a file and a row through dblink,
 * on every question. The reads run as an ordinary role (`reader`) unless a test says otherwise.
 */
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const reader = `nlq_reader_${suffix}`;
let database: TestDatabase;
let admin: pg.Client;
let client: pg.Client;
let session: QueryExecutor;
let superuserClient: pg.Client;
let planted: PlantedCodeWorld;
const scope = { statementTimeoutMilliseconds: 5_000 };

beforeAll(async () => {
  database = await createTestDatabase("nlq_planted_values");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN; CREATE ROLE ${reader} LOGIN`);
  await admin.query("CREATE TABLE towns (id integer PRIMARY KEY, name text); INSERT INTO towns VALUES (1, 'Brest')");
  await admin.query(`GRANT SELECT ON towns TO ${reader}`);
  planted = await plantCode(admin, { attacker, database: database.name, suffix });
  await admin.query("ALTER TABLE att.accounts ADD COLUMN note text; UPDATE att.accounts SET note = 'north note'");
  client = new pg.Client({ connectionString: database.urlFor(reader) });
  await client.connect();
  session = createPgExecutor(client);
  superuserClient = new pg.Client({ connectionString: database.url });
  await superuserClient.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await superuserClient?.end();
  await admin?.end();
  await database?.drop();
  for (const role of [attacker, reader]) await dropTestRole(role);
});

beforeEach(async () => {
  await planted.reset(admin);
});

/** Whether the planted function ran (a row through dblink, and as a superuser the program's file). */
const ran = async () => planted.fileWritten() || (await planted.lootRows(admin)).length > 0;

describe("value reads skip tables whose reading runs planted code", () => {
  it("the controls: a probe's cast of the planted column, and any read of the planted policy's table, run it", async () => {
    await runReadOnly({ session: createPgExecutor(superuserClient), ...scope }, (query) =>
      query("SELECT amt::pg_catalog.text FROM att.ledger LIMIT 1"),
    );
    expect(planted.fileWritten()).toBe(true);
    await planted.reset(admin);
    await runReadOnly({ session, ...scope }, (query) => query("SELECT note FROM att.accounts LIMIT 1"));
    expect(await planted.lootRows(admin)).toEqual([{ who: reader, leaked: null }]);
  });

  it("fetchSampleValues samples the other tables and not those", async () => {
    const catalog = await runReadOnly({ session, ...scope }, async (query) =>
      fetchSampleValues(query, await introspectCatalog(query)),
    );
    const samples = (name: string) =>
      catalog.tables.find((table) => table.name === name)?.columns.flatMap((column) => column.sampleValues ?? []);
    expect(samples("towns")).toEqual(["Brest"]);
    expect(samples("ledger")).toEqual([]);
    expect(samples("accounts")).toEqual([]);
    expect(await ran()).toBe(false);
  });

  it("visibleValues never probes them (as a superuser, whom the cast would run as)", async () => {
    const visible = await runReadOnly({ session: createPgExecutor(superuserClient), ...scope }, (query) =>
      visibleValues(query, [
        { schema: "att", table: "ledger", column: "amt", value: "5" },
        { schema: "att", table: "accounts", column: "note", value: "north note" },
        { schema: "public", table: "towns", column: "name", value: "Brest" },
      ]),
    );
    expect([...visible].map((key) => JSON.parse(key)[1])).toEqual(["towns"]);
    expect(await ran()).toBe(false);
  });

  it("the live value lookup never reads them", async () => {
    const catalog = await runReadOnly({ session, ...scope }, (query) => introspectCatalog(query));
    const lookup = createLiveValueLookup({ session });
    const found = await lookup({ catalog, keywords: ["north note", "Brest"] });
    const tables = found.flatMap((keyword) => keyword.candidates.map((candidate) => candidate.column.table));
    expect(tables).toContain("towns");
    expect(tables).not.toContain("accounts");
    expect(await ran()).toBe(false);
  });
});
