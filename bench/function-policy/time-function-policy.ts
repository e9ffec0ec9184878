/**
 * What the function policy and the session-residue check cost per question (issue 17 item 3, issue 18 item 7):
 * the mean time of a read-only scope that loads the policy from the catalogs (`loadFunctionPolicy`), of one that gets
 * it from the cache (`createFunctionPolicyCache`: the fingerprint query only) and of an empty scope (BEGIN READ ONLY,
 * the settings statement with the residue columns, ROLLBACK, the residue read). Every scope includes the residue
 * check, so the empty scope is its whole cost plus the transaction's.
 *
 *   npx tsx bench/function-policy/time-function-policy.ts [--url postgresql://postgres@127.0.0.1:5432/postgres] [--runs 30]
 */
import { parseArgs } from "node:util";
import { createPgExecutor } from "@nlq/adapters";
import { createFunctionPolicyCache, loadFunctionPolicy, runReadOnly } from "@nlq/engine";
import pg from "pg";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    runs: { type: "string", default: "30" },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${options.runs}`);

const client = new pg.Client({ connectionString: options.url });
await client.connect();
const scope = { session: createPgExecutor(client), statementTimeoutMilliseconds: 10_000 };
const cache = createFunctionPolicyCache();

async function mean(work: () => Promise<unknown>): Promise<number> {
  for (let warmup = 0; warmup < 5; warmup += 1) await work();
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) await work();
  return (performance.now() - started) / runs;
}

try {
  const load = await mean(() => runReadOnly(scope, (query) => loadFunctionPolicy(query)));
  const cached = await mean(() => runReadOnly(scope, (query) => cache.load(query)));
  const empty = await mean(() => runReadOnly(scope, async () => undefined));
  console.log(`read-only scope loading the policy:      ${load.toFixed(1)} ms`);
  console.log(`read-only scope with the cached policy:  ${cached.toFixed(1)} ms`);
  console.log(`empty read-only scope (residue included): ${empty.toFixed(1)} ms`);
} finally {
  await client.end();
}
