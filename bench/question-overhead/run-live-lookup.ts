/**
 * Latency of the bounded live value lookup (`createLiveValueLookup`, what a question on a database nothing indexed
 * runs before the value index is built): on the demo (12 tables) and on one 60,000-row table whose misspelt value sits
 * in row 59,000, as the superuser and as a role under row-level security.
 *
 *   npx tsx bench/question-overhead/run-live-lookup.ts [--runs 30] [--url postgresql://postgres@127.0.0.1:5432/postgres]
 *
 * Creates `nlq_live_lookup_bench` (kept) and uses `nlq_overhead_demo` when `npm run bench:question-overhead` made it.
 */
import { parseArgs } from "node:util";
import { createPgExecutor } from "@nlq/adapters";
import { createLiveValueLookup, fetchSampleValues, introspectCatalog, runReadOnly } from "@nlq/engine";
import pg from "pg";
import { percentile } from "./overhead-report";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "30" },
    url: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
  },
});
const runs = Number(options.runs);
const urlOf = (database: string) => {
  const url = new URL(options.url);
  url.pathname = `/${database}`;
  return url.toString();
};

async function ensureBenchDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: options.url });
  await admin.connect();
  try {
    if ((await admin.query("SELECT 1 FROM pg_database WHERE datname = 'nlq_live_lookup_bench'")).rowCount) return;
    await admin.query("CREATE DATABASE nlq_live_lookup_bench");
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: urlOf("nlq_live_lookup_bench") });
  await client.connect();
  await client.query(`
    CREATE TABLE customer (id integer PRIMARY KEY, city text NOT NULL, region text NOT NULL, owner name NOT NULL);
    INSERT INTO customer SELECT n, CASE n WHEN 59000 THEN 'Mississauga' ELSE 'Misty Town ' || n END,
      CASE WHEN n = 59000 THEN 'Saskatchewan' ELSE 'Ontario' END, 'postgres' FROM generate_series(1, 60000) AS n;
    ANALYZE;`);
  await client.end();
}

async function measure(database: string, keywords: string[]): Promise<{ p50: number; p95: number; found: string[] }> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    const session = createPgExecutor(client);
    const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 30_000 }, async (query) =>
      fetchSampleValues(query, await introspectCatalog(query)),
    );
    const lookup = createLiveValueLookup({ session });
    const times: number[] = [];
    let found: string[] = [];
    for (let run = 0; run < runs + 3; run++) {
      const started = performance.now();
      const result = await lookup({ catalog, keywords });
      if (run >= 3) times.push(performance.now() - started);
      found = result.map((entry) => `${entry.keyword} → ${entry.candidates[0]?.value ?? "nothing"}`);
    }
    return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), found };
  } finally {
    await client.end();
  }
}

await ensureBenchDatabase();
for (const [database, keywords] of [
  ["nlq_live_lookup_bench", ["Missisauga"]],
  ["nlq_live_lookup_bench", ["Missisauga", "Saskatchewen"]],
  ["nlq_overhead_demo", ["Lisbn"]],
  ["nlq_overhead_demo", ["Lisbn", "headphnes", "Ana"]],
] as const) {
  const figure = await measure(database, [...keywords]);
  console.log(
    `${database} ${JSON.stringify(keywords)}: p50 ${figure.p50.toFixed(1)} ms, p95 ${figure.p95.toFixed(1)} ms; ${figure.found.join("; ")}`,
  );
}
