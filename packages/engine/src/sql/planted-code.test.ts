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
import type { QueryExecutor } from "../database/query-executor";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { SqlValidationError } from "../errors/database-errors";
import { createFunctionPolicyCache } from "./function-policy-cache";
import { loadFunctionPolicy } from "./load-function-policy";
import { validateSql } from "./validate-sql";

/**
 * Issue 25, item 1: what PostgreSQL executes because a statement reads a relation — a view's body, a row-level
 * security policy, a column type's cast — decides, not only the calls the statement names. Real PostgreSQL, a real
 * planting role (`plantCode`), the asking role a superuser unless a test says otherwise.
 */
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const analyst = `nlq_analyst_${suffix}`;
const appOwner = `nlq_app_owner_${suffix}`;
let database: TestDatabase;
let admin: pg.Client;
let client: pg.Client;
let session: QueryExecutor;
let planted: PlantedCodeWorld;
const scope = { statementTimeoutMilliseconds: 5_000 };

beforeAll(async () => {
  database = await createTestDatabase("nlq_planted_code");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN; CREATE ROLE ${analyst} LOGIN; CREATE ROLE ${appOwner} LOGIN`);
  await admin.query(`
    CREATE EXTENSION pg_trgm;
    CREATE TABLE secrets (id integer, owner_role text, value text);
    INSERT INTO secrets VALUES (1, '${analyst}', 'analyst secret'), (2, 'nobody', 'hidden');
    ALTER TABLE secrets ENABLE ROW LEVEL SECURITY;
    CREATE POLICY own_rows ON secrets USING (owner_role = current_user);
    GRANT SELECT ON secrets TO ${analyst};
    CREATE TABLE sales (id integer PRIMARY KEY, region text, amount numeric);
    INSERT INTO sales VALUES (1, 'north', 10), (2, 'south', 20), (3, 'north', 5);
    CREATE TABLE regions (name text PRIMARY KEY, manager text);
    INSERT INTO regions VALUES ('north', 'ann'), ('south', 'bo');
    CREATE VIEW sales_report AS
      SELECT r.manager, s.region, count(*) AS orders, sum(s.amount) AS total,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY s.amount) AS median, pg_catalog.random() < 2 AS sampled
      FROM sales s JOIN regions r ON r.name = s.region GROUP BY 1, 2;
    CREATE VIEW fuzzy_regions AS SELECT name, similarity(name, 'nort') AS score FROM regions;
    CREATE FUNCTION audit_touch() RETURNS integer VOLATILE LANGUAGE plpgsql AS 'BEGIN RETURN 1; END';
    CREATE VIEW audited_sales AS SELECT id, audit_touch() AS audited FROM sales;
    CREATE VIEW locking_view AS SELECT pg_advisory_lock(9101)::text AS locked;
    CREATE DOMAIN locked_amount AS integer CHECK (pg_advisory_xact_lock(VALUE::bigint) IS NOT NULL);
    GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${analyst};
  `);
  planted = await plantCode(admin, { attacker, database: database.name, victimTable: "public.secrets", suffix });
  await admin.query(`
    CREATE VIEW report_over_planted AS SELECT region FROM att.v_sales;
    CREATE SCHEMA app AUTHORIZATION ${appOwner};
    SET ROLE ${appOwner};
    CREATE FUNCTION app.fiscal_label(numeric) RETURNS text VOLATILE LANGUAGE plpgsql AS 'BEGIN RETURN ''FY'' || $1; END';
    CREATE VIEW app.labelled_sales AS SELECT id, app.fiscal_label(amount) AS label FROM public.sales;
    RESET ROLE;
    GRANT USAGE ON SCHEMA app TO ${analyst};
    GRANT SELECT ON app.labelled_sales TO ${analyst};
  `);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
}, 60_000);

afterAll(async () => {
  await client?.end();
  await admin?.end();
  await database?.drop();
  for (const role of [attacker, analyst, appOwner]) await dropTestRole(role);
});

beforeEach(async () => {
  await planted.reset(admin);
});

const policyOf = (executor: QueryExecutor, allowed: readonly string[] = [], trusted: readonly string[] = []) =>
  runReadOnly({ session: executor, ...scope }, (query) => loadFunctionPolicy(query, allowed, trusted));

async function runsUnguarded(sql: string): Promise<void> {
  await runReadOnly({ session, ...scope }, (query) => query(sql));
}

describe("planted code that PostgreSQL would run for a plain SELECT", () => {
  it("really runs without the check: a program, a dblink write and the caller's rows in the planter's table", async () => {
    await runsUnguarded("SELECT * FROM att.v_sales");
    expect(planted.fileWritten()).toBe(true);
    expect(await planted.lootRows(admin)).toContainEqual({
      who: "postgres",
      leaked: expect.stringContaining("hidden"),
    });
    await planted.reset(admin);
    await runsUnguarded("SELECT lower(amt) FROM att.ledger");
    expect(planted.fileWritten()).toBe(true);
  });

  const refused: Array<[string, RegExp]> = [
    [
      "SELECT * FROM att.v_sales",
      new RegExp(
        `view att\\.v_sales \\(owner ${attacker}\\): its view body calls att\\.f\\(\\) \\(owner ${attacker}\\), which is volatile`,
      ),
    ],
    [
      "SELECT region, total FROM att.v_sales WHERE total > 0",
      /view att\.v_sales \(owner nlq_planter_\w+\): its view body calls att\.f\(\)/,
    ],
    [
      "SELECT lower(amt) FROM att.ledger",
      new RegExp(
        `table att\\.ledger \\(owner ${attacker}\\): column amt has type att\\.money2 \\(owner ${attacker}\\), whose cast from att\\.money2 to text runs att\\.m2t\\(\\) \\(owner ${attacker}\\), which is volatile`,
      ),
    ],
    ["SELECT concat(amt, '') FROM att.ledger", /column amt has type att\.money2/],
    ["SELECT count(*) FROM att.ledger", /column amt has type att\.money2/],
    ["SELECT * FROM (SELECT amt FROM att.ledger) AS l", /column amt has type att\.money2/],
    ["SELECT count(*) FROM att.accounts", /its row-level security policy accounts_seen calls att\.f\(\)/],
    [
      "SELECT * FROM report_over_planted",
      /view public\.report_over_planted \(owner postgres\), in its view body, reads view att\.v_sales \(owner nlq_planter_\w+\): its view body calls att\.f\(\)/,
    ],
    ["WITH s AS (SELECT * FROM att.v_sales) SELECT count(*) FROM s", /view att\.v_sales/],
    ["SELECT 1 WHERE EXISTS (SELECT 1 FROM att.ledger)", /table att\.ledger/],
    ["SELECT ROW(1)::att.money2", /a cast to type att\.money2 runs att\.m2t\(\), which is volatile/],
    // PostgreSQL's own functions a view body or a CHECK calls have no pg_depend row: found in the stored expression.
    [
      "SELECT * FROM locking_view",
      /view public\.locking_view \(owner postgres\): its view body calls pg_catalog\.pg_advisory_lock\(\) \(owner postgres\), which takes or releases advisory locks/,
    ],
    [
      "SELECT 1::locked_amount",
      /a cast to type public\.locked_amount runs pg_catalog\.pg_advisory_xact_lock\(\), which takes or releases advisory locks/,
    ],
  ];
  for (const [sql, reason] of refused) {
    it(`refuses ${sql}, naming what runs and who owns it`, async () => {
      const policy = await policyOf(session);
      const attempt = validateSql(sql, policy);
      await expect(attempt).rejects.toBeInstanceOf(SqlValidationError);
      await expect(attempt).rejects.toMatchObject({ code: "25006", message: expect.stringMatching(reason) });
    });
  }

  it("refuses the same for an ordinary role, whose rows the planted code would copy out", async () => {
    const analystClient = new pg.Client({ connectionString: database.urlFor(analyst) });
    await analystClient.connect();
    try {
      const executor = createPgExecutor(analystClient);
      const policy = await policyOf(executor);
      await expect(validateSql("SELECT * FROM att.v_sales", policy)).rejects.toThrow(/its view body calls att\.f\(\)/);
      await expect(validateSql("SELECT count(*) FROM att.accounts", policy)).rejects.toThrow(/policy accounts_seen/);
      // Without the check the analyst's own row leaves through dblink.
      await runReadOnly({ session: executor, ...scope }, (query) => query("SELECT count(*) FROM att.accounts"));
      expect(await planted.lootRows(admin)).toEqual([
        { who: analyst, leaked: expect.stringContaining("analyst secret") },
      ]);
      expect(planted.fileWritten()).toBe(false);
    } finally {
      await analystClient.end();
    }
  });

  it("keeps ordinary analytics working: views over joins and aggregates, percentile_cont, allowed extension functions", async () => {
    const policy = await policyOf(session);
    for (const sql of [
      "SELECT * FROM sales_report ORDER BY region",
      "SELECT manager, sum(total) FROM sales_report GROUP BY manager",
      "SELECT name, score FROM fuzzy_regions ORDER BY score DESC",
      "SELECT s.region, count(*) FROM sales s JOIN regions r ON r.name = s.region GROUP BY 1",
      "SELECT amt::text FROM (VALUES ('x'::text)) AS v(amt)",
      "SELECT 'a'::text, lower('ABC'), concat('a', 1)",
      "SELECT relname FROM pg_catalog.pg_class WHERE relname = 'sales'",
      "SELECT count(*) FROM pg_stat_activity",
    ]) {
      const validated = await validateSql(sql, policy);
      const capped = await runReadOnly({ session, ...scope }, (query) => queryWithRowLimit(query, validated.sql, 10));
      expect(capped.result.rows.length, sql).toBeGreaterThan(0);
    }
    expect(planted.fileWritten()).toBe(false);
  });

  it("trusts the code of the asker, superusers and NLQ_TRUSTED_OWNERS, and nobody else's", async () => {
    // A superuser's view calling a superuser's volatile function: trusted (the asker is a superuser too).
    await expect(validateSql("SELECT * FROM audited_sales", await policyOf(session))).resolves.toBeDefined();
    const analystClient = new pg.Client({ connectionString: database.urlFor(analyst) });
    await analystClient.connect();
    try {
      const executor = createPgExecutor(analystClient);
      // For an ordinary role the superuser's view is still trusted; the app owner's is not, unless configured.
      await expect(validateSql("SELECT * FROM audited_sales", await policyOf(executor))).resolves.toBeDefined();
      await expect(validateSql("SELECT * FROM app.labelled_sales", await policyOf(executor))).rejects.toThrow(
        new RegExp(
          `view app\\.labelled_sales \\(owner ${appOwner}\\): its view body calls app\\.fiscal_label\\(\\) \\(owner ${appOwner}\\), which is volatile`,
        ),
      );
      await expect(
        validateSql("SELECT * FROM app.labelled_sales", await policyOf(executor, [], [appOwner])),
      ).resolves.toBeDefined();
      // Trusting the app owner does not trust the planter.
      await expect(validateSql("SELECT * FROM att.v_sales", await policyOf(executor, [], [appOwner]))).rejects.toThrow(
        /att\.f\(\)/,
      );
    } finally {
      await analystClient.end();
    }
    // Dangerous categories are refused whoever owns the view.
    await expect(validateSql("SELECT * FROM locking_view", await policyOf(session, [], ["postgres"]))).rejects.toThrow(
      /advisory locks/,
    );
  });

  it("lets a stable planted function run only when NLQ_ALLOWED_FUNCTIONS names it, as a call by name", async () => {
    await admin.query(
      `SET ROLE ${attacker}; CREATE FUNCTION att.label(integer) RETURNS text STABLE LANGUAGE sql AS 'SELECT ''x'' || $1';
       CREATE VIEW att.labels AS SELECT att.label(1) AS label; GRANT SELECT ON att.labels TO PUBLIC;
       CREATE FUNCTION att.make(integer) RETURNS att.money2 STABLE LANGUAGE sql AS 'SELECT ROW($1)::att.money2'; RESET ROLE`,
    );
    try {
      await expect(validateSql("SELECT * FROM att.labels", await policyOf(session))).rejects.toThrow(
        /att\.label\(\) .* is a user-defined function not named in NLQ_ALLOWED_FUNCTIONS/,
      );
      await expect(
        validateSql("SELECT * FROM att.labels", await policyOf(session, ["att.label"])),
      ).resolves.toBeDefined();
      // An allowed function still brings its result type's planted cast along.
      await expect(validateSql("SELECT lower(att.make(1))", await policyOf(session, ["att.make"]))).rejects.toThrow(
        /function att\.make\(\) returns or takes type att\.money2 .*cast from att\.money2 to text runs att\.m2t\(\)/,
      );
    } finally {
      await admin.query("DROP VIEW att.labels; DROP FUNCTION att.label(integer); DROP FUNCTION att.make(integer)");
    }
  });

  it("does not refuse `x::text` everywhere because some role made a cast from its own type to text", async () => {
    const policy = await policyOf(session);
    await expect(validateSql("SELECT id::text, region::text FROM sales", policy)).resolves.toBeDefined();
    await expect(validateSql("SELECT to_json(region) FROM sales", policy)).resolves.toBeDefined();
  });

  it("names a shadowing = operator and its owner, and how to avoid it", async () => {
    await admin.query(`GRANT CREATE ON SCHEMA public TO ${attacker}`);
    await admin.query(
      `SET ROLE ${attacker}; CREATE FUNCTION public.int_eq_logged(integer, integer) RETURNS boolean VOLATILE LANGUAGE sql AS 'SELECT $1 OPERATOR(pg_catalog.=) $2';
       CREATE OPERATOR public.= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.int_eq_logged); RESET ROLE`,
    );
    try {
      const policy = await policyOf(session);
      await expect(validateSql("SELECT count(*) FROM sales WHERE id = 1", policy)).rejects.toThrow(
        new RegExp(
          `operator = calls public\\.int_eq_logged\\(\\), which is volatile: it is operator public\\.=\\(integer, integer\\) \\(owner ${attacker}\\); schema public is on the search path, so nlq refuses every unqualified = .*OPERATOR\\(pg_catalog\\.=\\)`,
        ),
      );
      await expect(
        validateSql("SELECT count(*) FROM sales WHERE id OPERATOR(pg_catalog.=) 1", policy),
      ).resolves.toBeDefined();
    } finally {
      await admin.query(`DROP OPERATOR public.= (integer, integer); DROP FUNCTION public.int_eq_logged(integer, integer);
        REVOKE CREATE ON SCHEMA public FROM ${attacker}`);
    }
  });

  it("loads the facts under search_path pg_catalog and gives the scope its own search path back", async () => {
    await client.query(`SET search_path = public, "$user"`);
    try {
      const seen = await runReadOnly({ session, ...scope }, async (query) => {
        const before = (await query("SHOW search_path")).rows[0]?.[0];
        await loadFunctionPolicy(query);
        return [before, (await query("SHOW search_path")).rows[0]?.[0]];
      });
      expect(seen).toEqual(['public, "$user"', 'public, "$user"']);
      expect((await client.query("SHOW search_path")).rows[0].search_path).toBe('public, "$user"');
    } finally {
      await client.query("RESET search_path");
    }
  });

  it("is not answered by an = the role put before pg_catalog on its search path", async () => {
    await admin.query(`CREATE SCHEMA hijack;
      CREATE FUNCTION hijack.oid_eq(oid, oid) RETURNS boolean VOLATILE LANGUAGE sql
        AS 'SELECT pg_catalog.pg_advisory_lock(9102) IS NOT NULL AND $1 OPERATOR(pg_catalog.=) $2';
      CREATE OPERATOR hijack.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = hijack.oid_eq)`);
    await client.query("SET search_path = hijack, pg_catalog, public");
    try {
      // The scope's residue check would refuse a lock left behind by the hijacking operator.
      const policy = await policyOf(session);
      await expect(validateSql("SELECT * FROM public.sales", policy)).resolves.toBeDefined();
      await expect(validateSql("SELECT * FROM att.v_sales", policy)).rejects.toThrow(/att\.f\(\)/);
    } finally {
      await client.query("RESET search_path");
      await admin.query("DROP SCHEMA hijack CASCADE");
    }
  });

  it("reloads a cached policy when a view body, a policy or a column type changes", async () => {
    const cache = createFunctionPolicyCache();
    const cached = () => runReadOnly({ session, ...scope }, (query) => cache.load(query));
    await admin.query("CREATE VIEW later_view AS SELECT 1 AS one");
    try {
      await expect(validateSql("SELECT * FROM later_view", await cached())).resolves.toBeDefined();
      await admin.query("CREATE OR REPLACE VIEW later_view AS SELECT 1 AS one FROM att.v_sales");
      await expect(validateSql("SELECT * FROM later_view", await cached())).rejects.toThrow(/att\.f\(\)/);
      await admin.query("CREATE TABLE later_table (id integer, amount numeric)");
      await expect(validateSql("SELECT * FROM later_table", await cached())).resolves.toBeDefined();
      await admin.query("ALTER TABLE later_table ALTER COLUMN amount TYPE att.money2 USING ROW(amount)::att.money2");
      await expect(validateSql("SELECT * FROM later_table", await cached())).rejects.toThrow(/att\.m2t\(\)/);
      await admin.query("ALTER TABLE later_table ALTER COLUMN amount TYPE numeric USING 0");
      await admin.query("ALTER TABLE later_table ENABLE ROW LEVEL SECURITY");
      await admin.query("CREATE POLICY later_policy ON later_table USING (att.f() IS NOT NULL)");
      await expect(validateSql("SELECT * FROM later_table", await cached())).rejects.toThrow(
        /later_policy calls att\.f\(\)/,
      );
    } finally {
      await admin.query("DROP VIEW IF EXISTS later_view; DROP TABLE IF EXISTS later_table");
    }
    expect(planted.fileWritten()).toBe(false);
  });
});
