import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import type { QueryExecutor } from "../database/query-executor";
import { mockTextModel } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

/**
 * Issue 6, reproduction 1: with `standard_conforming_strings = off` on the session, this text is one SELECT to the
 * validator (which lexes with the setting on) but `COMMIT; UPDATE …` to a server that runs it as a simple Query.
 */
const hostileSql =
  "SELECT '\\' AS a, ') AS x; COMMIT; UPDATE canary SET v = $$pwned$$ WHERE id = 6; SELECT * FROM (SELECT 1 AS a --' AS b";

const settings = loadSettings({});
const role = `nlq_lexical_${randomBytes(4).toString("hex")}`;
let database: TestDatabase;
let admin: pg.Client;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_lexical",
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
});
afterAll(async () => {
  await admin?.end();
  await database?.drop();
  await dropTestRole(role);
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.urlFor(role) });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

const value = async (sql: string) => (await session.query({ sql })).rows[0]?.[0];

/** What a question must leave as it was: settings, locks, the canary. */
async function sessionState() {
  return {
    standardConformingStrings: await value("SHOW standard_conforming_strings"),
    searchPath: await value("SHOW search_path"),
    statementTimeout: await value("SHOW statement_timeout"),
    advisoryLocks: await value("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"),
  };
}

function askHostile(transactionStatus: "idle" | "in-transaction") {
  const model = mockTextModel(JSON.stringify({ reasoning: "looks like one SELECT", sql: hostileSql }));
  return answerQuestion({
    question: "show me a and b",
    session,
    transactionStatus,
    settings,
    resolveModel: () => ({ model, id: "mock:hostile", scripted: false }),
  });
}

describe("a string literal lexed differently by the validator and the session (issue 6, reproduction 1)", () => {
  it("runs on a session with standard_conforming_strings = off as the one SELECT that was validated", async () => {
    const before = await sessionState();
    expect(before.standardConformingStrings).toBe("off");
    const answer = await askHostile("idle");
    // Lexed with standard_conforming_strings on, as validated: two string columns, nothing else ran.
    expect(answer.result.fields.map((field) => field.name)).toEqual(["a", "b"]);
    expect(answer.result.rows).toEqual([
      ["\\", ") AS x; COMMIT; UPDATE canary SET v = $$pwned$$ WHERE id = 6; SELECT * FROM (SELECT 1 AS a --"],
    ]);
    expect((await admin.query("SELECT v FROM canary WHERE id = 6")).rows).toEqual([{ v: "safe" }]);
    expect(await sessionState()).toEqual(before);
  });

  it("inside the client's open transaction commits nothing and keeps the transaction open", async () => {
    await session.query({ sql: "BEGIN" });
    await session.query({ sql: "INSERT INTO notes VALUES ('uncommitted work')" });
    const before = await sessionState();
    await askHostile("in-transaction");
    expect((await admin.query("SELECT v FROM canary WHERE id = 6")).rows).toEqual([{ v: "safe" }]);
    // Still the client's transaction: its row is visible to it, not to anyone else.
    expect(await value("SELECT count(*) FROM notes")).toBe("1");
    expect((await admin.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
    expect(await sessionState()).toEqual(before);
    await session.query({ sql: "ROLLBACK" });
    expect((await admin.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
  });

  it("is refused by the server when sent without the read-only scope: one Parse cannot hold two commands", async () => {
    await expect(session.query({ sql: hostileSql })).rejects.toMatchObject({ code: "42601" });
    expect((await admin.query("SELECT v FROM canary WHERE id = 6")).rows).toEqual([{ v: "safe" }]);
  });
});
