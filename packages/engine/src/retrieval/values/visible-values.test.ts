import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReadOnly } from "../../database/read-only-session";
import { type ValueProbe, valueProbeKey } from "./value-visibility-statement";
import { createValueVisibility, visibleValues } from "./visible-values";

const role = `nlq_visible_${randomBytes(4).toString("hex")}`;
const tricky = String.raw`it's a \' ) AS x; COMMIT; -- value`;
const setup = `
CREATE TABLE account (id integer PRIMARY KEY, owner name NOT NULL, label text, secret_note text);
INSERT INTO account VALUES
  (1, '${role}', 'Own Visible-Label', 'own note'),
  (2, '${role}', E'${tricky.replaceAll("\\", "\\\\").replaceAll("'", "''")}', 'own note 2'),
  (3, 'someone_else', 'HIDDENRLS Zanzibar-Quokka-4411', 'HIDDENCOL note');
ALTER TABLE account ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON account FOR SELECT USING (owner = current_user);
CREATE TABLE city (name text);
INSERT INTO city VALUES ('Lisbon');
CREATE FUNCTION boom() RETURNS text LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$;
CREATE VIEW broken AS SELECT boom() AS label;
CREATE VIEW slow AS SELECT 'Lisbon'::text AS label FROM pg_sleep(30);
CREATE VIEW locking AS SELECT 'Lisbon'::text AS label FROM pg_advisory_lock(7003);
CREATE ROLE ${role} LOGIN;
GRANT SELECT (id, owner, label) ON account TO ${role};
GRANT SELECT ON city, broken, slow, locking TO ${role};
`;

const probe = (table: string, column: string, value: string, match?: "prefix"): ValueProbe => ({
  schema: "public",
  table,
  column,
  value,
  ...(match ? { match } : {}),
});

describe("visibleValues", () => {
  let database: TestDatabase;
  let superuser: pg.Client;
  let limited: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_visible_values", setup);
    superuser = new pg.Client({ connectionString: database.url });
    limited = new pg.Client({ connectionString: database.urlFor(role) });
    await superuser.connect();
    await limited.connect();
  });

  afterAll(async () => {
    await superuser?.end();
    await limited?.end();
    await database?.drop();
    await dropTestRole(role);
  });

  const probes = [
    probe("account", "label", "Own Visible-Label"),
    probe("account", "label", "HIDDENRLS Zanzibar-Quokka-4411"),
    probe("account", "label", "HIDDENRLS Zanz", "prefix"),
    probe("account", "label", "Own Vis", "prefix"),
    probe("account", "owner", "someone_else"),
    probe("account", "label", tricky),
    probe("city", "name", "Lisbon"),
    probe("city", "name", "Porto"),
  ];
  const shown = (visible: ReadonlySet<string>) =>
    probes.filter((candidate) => visible.has(valueProbeKey(candidate))).map((candidate) => candidate.value);

  it("keeps only values of rows the role can see under row-level security", async () => {
    const asLimited = createValueVisibility({ session: createPgExecutor(limited) });
    expect(shown(await asLimited(probes))).toEqual(["Own Visible-Label", "Own Vis", tricky, "Lisbon"]);
    const asSuperuser = createValueVisibility({ session: createPgExecutor(superuser) });
    expect(shown(await asSuperuser(probes))).toEqual([
      "Own Visible-Label",
      "HIDDENRLS Zanzibar-Quokka-4411",
      "HIDDENRLS Zanz",
      "Own Vis",
      "someone_else",
      tricky,
      "Lisbon",
    ]);
  });

  it("reads literals the same with standard_conforming_strings off", async () => {
    await limited.query("SET standard_conforming_strings = off");
    try {
      const visible = await createValueVisibility({ session: createPgExecutor(limited) })([
        probe("account", "label", tricky),
      ]);
      expect(visible.has(valueProbeKey(probe("account", "label", tricky)))).toBe(true);
    } finally {
      await limited.query("RESET standard_conforming_strings");
    }
  });

  it("drops the values of a table it cannot check (no privilege, failing, slow) and keeps the others", async () => {
    const session = createPgExecutor(limited);
    const result = await runReadOnly({ session, statementTimeoutMilliseconds: 30_000 }, async (query) => {
      const visible = await visibleValues(
        query,
        [
          probe("account", "secret_note", "own note"),
          probe("broken", "label", "x"),
          probe("slow", "label", "Lisbon"),
          probe("city", "name", "Lisbon"),
        ],
        { timeoutMilliseconds: 200 },
      );
      return { visible, timeout: (await query("SHOW statement_timeout")).rows[0]?.[0] };
    });
    expect([...result.visible]).toEqual([valueProbeKey(probe("city", "name", "Lisbon"))]);
    expect(result.timeout).toBe("30s");
  });

  it("checks every table in one statement when it can: one probe statement for two tables, not one per table", async () => {
    const session = createPgExecutor(superuser);
    const sent: string[] = [];
    const visible = await runReadOnly({ session, statementTimeoutMilliseconds: 30_000 }, (query) =>
      visibleValues(
        (sql, options) => {
          sent.push(sql);
          return query(sql, options);
        },
        [
          probe("account", "label", "Own Visible-Label"),
          probe("city", "name", "Lisbon"),
          probe("city", "name", "Porto"),
        ],
      ),
    );
    expect(shown(visible)).toEqual(["Own Visible-Label", "Lisbon"]);
    const probesSent = sent.filter((sql) => sql.includes("EXISTS"));
    expect(probesSent).toHaveLength(1);
    expect(probesSent[0]).toContain('"public"."account"');
    expect(probesSent[0]).toContain('"public"."city"');
  });

  it("probes ordinary and partitioned tables only: a view's body never runs in the asking session (issue 17)", async () => {
    const visible = await createValueVisibility({ session: createPgExecutor(limited) })([
      probe("locking", "label", "Lisbon"),
      probe("city", "name", "Lisbon"),
    ]);
    expect([...visible]).toEqual([valueProbeKey(probe("city", "name", "Lisbon"))]);
    const locks = await limited.query(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    );
    expect(locks.rows[0].n).toBe(0);
  });

  it("fails closed when the session cannot run a read-only scope", async () => {
    const visibility = createValueVisibility({ session: createPgExecutor(limited), transactionStatus: "failed" });
    expect(await visibility([probe("city", "name", "Lisbon")])).toEqual(new Set());
  });
});
