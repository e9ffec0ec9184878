import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { sessionAuthority } from "./session-authority";

const plain = `nlq_authority_plain_${process.pid}`;
const member = `nlq_authority_member_${process.pid}`;
const administrators = `nlq_authority_admins_${process.pid}`;
let database: TestDatabase;

beforeAll(async () => {
  for (const role of [plain, member, administrators]) await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_session_authority",
    `CREATE ROLE ${plain} LOGIN; CREATE ROLE ${administrators}; CREATE ROLE ${member} LOGIN IN ROLE ${administrators};`,
  );
});
afterAll(async () => {
  await database?.drop();
  for (const role of [plain, member, administrators]) await dropTestRole(role);
});

async function authorityOf(role: string, inTransaction = false) {
  const client = new pg.Client({ connectionString: database.urlFor(role) });
  await client.connect();
  try {
    if (inTransaction) await client.query("BEGIN; SET LOCAL application_name = 'kept'");
    const authority = await sessionAuthority({
      session: createPgExecutor(client),
      transactionStatus: inTransaction ? "in-transaction" : "idle",
      statementTimeoutMilliseconds: 5_000,
      administratorRole: administrators,
    });
    const kept = inTransaction ? (await client.query("SHOW application_name")).rows[0].application_name : undefined;
    return { authority, kept };
  } finally {
    await client.end();
  }
}

describe("sessionAuthority", () => {
  it("says who the session is and whether it is an administrator, leaving the session as it was", async () => {
    expect((await authorityOf(plain)).authority).toEqual({ role: plain, administrator: false });
    expect((await authorityOf(member)).authority).toEqual({ role: member, administrator: true });
    const inside = await authorityOf(member, true);
    expect(inside.authority.administrator).toBe(true);
    expect(inside.kept).toBe("kept");
  });
});
