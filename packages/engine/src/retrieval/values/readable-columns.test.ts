import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readableColumnKeys } from "./readable-columns";
import { columnKey } from "./value-column";

describe("readableColumnKeys (real PostgreSQL)", () => {
  const role = `nlq_readable_${randomBytes(4).toString("hex")}`;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_readable",
      `CREATE SCHEMA open_area; CREATE TABLE open_area.visible (id int, secret text);
       CREATE SCHEMA closed_area; CREATE TABLE closed_area.hidden (id int);
       CREATE ROLE ${role} LOGIN;
       GRANT USAGE ON SCHEMA open_area TO ${role};
       GRANT SELECT (id) ON open_area.visible TO ${role};
       GRANT SELECT ON closed_area.hidden TO ${role};`,
    );
  });
  afterAll(async () => {
    await database.drop();
    await dropTestRole(role);
  });

  it("keeps the columns the role may select, and leaves out schemas it has no USAGE on instead of failing", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(role) });
    await client.connect();
    try {
      const readable = await readableColumnKeys({
        executor: createPgExecutor(client),
        columns: [
          { schema: "open_area", table: "visible", column: "id" },
          { schema: "open_area", table: "visible", column: "secret" },
          { schema: "closed_area", table: "hidden", column: "id" },
          { schema: "open_area", table: "gone", column: "id" },
        ],
      });
      expect([...readable]).toEqual([columnKey({ schema: "open_area", table: "visible", column: "id" })]);
    } finally {
      await client.end();
    }
  });
});
