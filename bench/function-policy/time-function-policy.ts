/**
 * What the function policy and the session-residue check cost per question (issue 17 item 3, issue 18 item 7, issue
 * 25): the mean time of a read-only scope that loads the policy from the catalogs (`loadFunctionPolicy`: functions,
 * operators, types, and since issue 25 what relations bring along), of one that gets it from the cache
 * (`createFunctionPolicyCache`: the fingerprint query only) and of an empty scope (BEGIN READ ONLY, the settings
 * statement with the residue columns, ROLLBACK, the residue read). Every scope includes the residue check, so the
 * empty scope is its whole cost plus the transaction's.
 *
 *   npx tsx bench/function-policy/time-function-policy.ts [--url postgresql://postgres@127.0.0.1:5432/postgres] [--runs 30]
 *     [--synthetic <tables>] [--engine <module>]
 *
 * `--synthetic N` measures on a throwaway database (created on the URL's server, dropped after) holding N tables of
 * six columns, N/3 views joining two of them with an aggregate, N/10 tables with a row-level security policy calling
 * a stable helper function, and the code issue 25 plants (`plantCode`). `--engine` loads `loadFunctionPolicy`,
 * `createFunctionPolicyCache` and `runReadOnly` from another copy of the engine (e.g. an earlier commit's, extracted
 * with `git archive`) to compare on the same server and load.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, plantCode } from "@nlq/adapters/testing";
import pg from "pg";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    runs: { type: "string", default: "30" },
    synthetic: { type: "string" },
    engine: { type: "string" },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${options.runs}`);
const tables = options.synthetic === undefined ? 0 : Number(options.synthetic);
if (!Number.isInteger(tables) || tables < 0) throw new Error(`--synthetic must be a whole number, got ${tables}`);

type Engine = typeof import("@nlq/engine");
const engine: Pick<Engine, "createFunctionPolicyCache" | "loadFunctionPolicy" | "runReadOnly"> =
  options.engine === undefined
    ? await import("@nlq/engine")
    : await import(pathToFileURL(path.resolve(options.engine)).href);

/** The synthetic catalog's SQL: tables, views over joins with aggregates, RLS policies with a helper function. */
function syntheticSql(count: number): string {
  const statements = ["CREATE FUNCTION tenant_of(integer) RETURNS integer STABLE LANGUAGE sql AS 'SELECT $1 % 7'"];
  for (let index = 0; index < count; index += 1) {
    statements.push(
      `CREATE TABLE t${index} (id integer PRIMARY KEY, name text, amount numeric, created timestamptz, ref integer, note varchar(40))`,
    );
    if (index % 10 === 0) {
      statements.push(`ALTER TABLE t${index} ENABLE ROW LEVEL SECURITY`);
      statements.push(`CREATE POLICY tenant ON t${index} USING (tenant_of(id) >= 0)`);
    }
  }
  for (let index = 0; index + 1 < count; index += 3) {
    statements.push(
      `CREATE VIEW v${index} AS SELECT a.name, count(*) AS n, sum(b.amount) AS total, percentile_cont(0.5) WITHIN GROUP (ORDER BY b.amount) AS median FROM t${index} a JOIN t${index + 1} b ON b.ref = a.id GROUP BY a.name`,
    );
  }
  return `${statements.join(";\n")};`;
}

let url = options.url;
let cleanup = async () => undefined;
if (tables > 0) {
  const suffix = randomBytes(4).toString("hex");
  const attacker = `nlq_bench_planter_${suffix}`;
  const database = await createTestDatabase("nlq_bench_policy", syntheticSql(tables));
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN`);
  await plantCode(admin, { attacker, database: database.name, suffix });
  await admin.end();
  url = database.url;
  cleanup = async () => {
    await database.drop();
    await dropTestRole(attacker);
  };
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const scope = { session: createPgExecutor(client), statementTimeoutMilliseconds: 60_000 };
const cache = engine.createFunctionPolicyCache();

async function mean(work: () => Promise<unknown>): Promise<number> {
  for (let warmup = 0; warmup < 5; warmup += 1) await work();
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) await work();
  return (performance.now() - started) / runs;
}

try {
  const catalog = (
    await client.query(
      "SELECT (SELECT count(*) FROM pg_proc) AS functions, (SELECT count(*) FROM pg_class) AS relations, (SELECT count(*) FROM pg_rewrite) AS rules",
    )
  ).rows[0];
  console.log(`catalog: ${catalog.functions} functions, ${catalog.relations} relations, ${catalog.rules} rules`);
  const load = await mean(() => engine.runReadOnly(scope, (query) => engine.loadFunctionPolicy(query)));
  const cached = await mean(() => engine.runReadOnly(scope, (query) => cache.load(query)));
  const empty = await mean(() => engine.runReadOnly(scope, async () => undefined));
  console.log(`read-only scope loading the policy:      ${load.toFixed(1)} ms`);
  console.log(`read-only scope with the cached policy:  ${cached.toFixed(1)} ms`);
  console.log(`empty read-only scope (residue included): ${empty.toFixed(1)} ms`);
} finally {
  await client.end();
  await cleanup();
}
