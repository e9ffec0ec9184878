import { randomBytes } from "node:crypto";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientConfig, startTestProxy } from "./proxy-fixture";

/**
 * Issue 6, reproduction 1 through the proxy: a role with `standard_conforming_strings = off` asks a question whose
 * (hostile) model answer is one SELECT to the validator but `COMMIT; UPDATE …` to a simple-Query lexer. The proxy's
 * upstream executor sends it as one extended-protocol statement inside a scope with the setting on.
 */
const hostileSql =
  "SELECT '\\' AS a, ') AS x; COMMIT; UPDATE canary SET v = $$pwned$$ WHERE id = 6; SELECT * FROM (SELECT 1 AS a --' AS b";

describe("lexical injection through the proxy (issue 6, reproduction 1)", () => {
  const role = `nlq_lexical_proxy_${randomBytes(4).toString("hex")}`;
  const settings = loadSettings({});
  let database: TestDatabase;
  let admin: pg.Client;
  let proxy: ProxyServer;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_lexical_proxy",
      `CREATE TABLE canary (id integer PRIMARY KEY, v text NOT NULL);
       INSERT INTO canary VALUES (6, 'safe');
       CREATE TABLE notes (body text);
       CREATE ROLE ${role} LOGIN;
       ALTER ROLE ${role} SET standard_conforming_strings = off;
       GRANT SELECT, UPDATE ON canary TO ${role};
       GRANT SELECT, INSERT ON notes TO ${role};`,
    );
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const model = mockTextModel(JSON.stringify({ reasoning: "one SELECT", sql: hostileSql }));
    proxy = await startTestProxy((options) =>
      answerQuestion({ ...options, settings, resolveModel: () => ({ model, id: "mock:hostile", scripted: false }) }),
    );
  });

  afterAll(async () => {
    await proxy?.close();
    await admin?.end();
    await database?.drop();
    await dropTestRole(role);
  });

  async function withRoleClient(run: (client: pg.Client) => Promise<void>): Promise<void> {
    const client = new pg.Client({ ...clientConfig(database.name, proxy.address.port), user: role });
    await client.connect();
    try {
      await run(client);
    } finally {
      await client.end();
    }
  }

  const canary = async () => (await admin.query("SELECT v FROM canary WHERE id = 6")).rows;
  const state = async (client: pg.Client) =>
    (
      await client.query(
        `SELECT current_setting('standard_conforming_strings') AS scs, current_setting('search_path') AS path,
                (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS locks`,
      )
    ).rows[0];

  it("answers the validated SELECT on an idle session and changes nothing", async () => {
    await withRoleClient(async (client) => {
      const before = await state(client);
      expect(before).toMatchObject({ scs: "off" });
      const result = await client.query("/* nl: show a and b */");
      expect(result.fields.map((field) => field.name)).toEqual(["a", "b"]);
      expect(result.rows[0]?.a).toBe("\\");
      expect(await canary()).toEqual([{ v: "safe" }]);
      expect(await state(client)).toEqual(before);
    });
  });

  it("inside the client's open transaction commits nothing and keeps the transaction", async () => {
    await withRoleClient(async (client) => {
      await client.query("BEGIN");
      await client.query("INSERT INTO notes VALUES ('uncommitted work')");
      const before = await state(client);
      await client.query("/* nl: show a and b */");
      expect(client.getTransactionStatus()).toBe("T");
      expect(await canary()).toEqual([{ v: "safe" }]);
      expect((await admin.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
      expect((await client.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 1 }]);
      expect(await state(client)).toEqual(before);
      await client.query("ROLLBACK");
      expect((await admin.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
    });
  });
});
