import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readableColumnKeys } from "./readable-columns";
import { columnKey } from "./value-column";
import { type ValueProbe, valueProbeKey } from "./value-visibility-statement";
import { createValueVisibility } from "./visible-values";

/**
 * A role that may create objects in a schema on its search path can put its own `=` operator, `starts_with` and
 * privilege functions ahead of pg_catalog's (`SET search_path = public, pg_catalog`). The checks that decide what
 * another role's index may show it must not be fooled by them.
 */
const role = `nlq_hijack_${randomBytes(4).toString("hex")}`;
const setup = `
CREATE TABLE account (id integer PRIMARY KEY, owner name NOT NULL, label text, secret_note text);
INSERT INTO account VALUES (1, '${role}', 'Own label', 'own'), (2, 'someone_else', 'HIDDENRLS label', 'HIDDENCOL');
ALTER TABLE account ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON account FOR SELECT USING (owner = current_user);
CREATE ROLE ${role} LOGIN;
GRANT USAGE, CREATE ON SCHEMA public TO ${role};
GRANT SELECT (id, owner, label) ON account TO ${role};
`;
const hijack = `
CREATE FUNCTION public.always_true(text, text) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = text, FUNCTION = public.always_true);
CREATE FUNCTION public.starts_with(text, text) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE FUNCTION public.has_column_privilege(name, oid, smallint, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION public.has_schema_privilege(name, oid, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
SET search_path = public, pg_catalog;
`;

const probe = (value: string, match?: "prefix"): ValueProbe => ({
  schema: "public",
  table: "account",
  column: "label",
  value,
  ...(match ? { match } : {}),
});

describe("value and column checks under a hijacked search path (real PostgreSQL)", () => {
  let database: TestDatabase;
  let limited: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_search_path_hijack", setup);
    limited = new pg.Client({ connectionString: database.urlFor(role) });
    await limited.connect();
    await limited.query(hijack);
  });

  afterAll(async () => {
    await limited?.end();
    await database?.drop();
    await dropTestRole(role);
  });

  it("shows no hidden row's value through a user-defined = or starts_with", async () => {
    const probes = [probe("Own label"), probe("HIDDENRLS label"), probe("HIDDENRLS", "prefix")];
    const visible = await createValueVisibility({ session: createPgExecutor(limited) })(probes);
    expect(
      probes.filter((candidate) => visible.has(valueProbeKey(candidate))).map((candidate) => candidate.value),
    ).toEqual(["Own label"]);
  });

  it("reports no column the role may not select through user-defined privilege functions", async () => {
    const readable = await readableColumnKeys({
      executor: createPgExecutor(limited),
      columns: [
        { schema: "public", table: "account", column: "label" },
        { schema: "public", table: "account", column: "secret_note" },
      ],
    });
    expect([...readable]).toEqual([columnKey({ schema: "public", table: "account", column: "label" })]);
  });
});
