// Builds the defog candidate pool of BENCHMARKS.md ("nlq eval --candidates"): loads the 11 defog databases into a
// fresh PostgreSQL database (one schema each) and writes the pool as JSONL (gold + perturbed candidates).
//
//   npx tsx bench/eval-pool/build-defog-pool.ts [--server postgresql://postgres@127.0.0.1:5432/postgres]
//     [--database nlq_defog_eval] [--out /tmp/defog-pool.jsonl] [--defog ../shared/data/defog] [--without-gold]
// then: npx tsx apps/cli/bin/nlq.mjs eval --candidates /tmp/defog-pool.jsonl --url <printed URL>
import { existsSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildDefogPool, defaultDefogDirectory, loadDefogDatabases } from "@nlq/eval";
import pg from "pg";

const { values } = parseArgs({
  options: {
    server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    database: { type: "string", default: "nlq_defog_eval" },
    out: { type: "string", default: "/tmp/defog-pool.jsonl" },
    defog: { type: "string", default: defaultDefogDirectory },
    "without-gold": { type: "boolean", default: false },
  },
});
if (!existsSync(values.defog)) {
  process.stderr.write(`skipped: no defog data at ${values.defog}\n`);
  process.exit(0);
}
if (!/^[a-z_][a-z0-9_]*$/.test(values.database)) throw new Error("--database: lower-case letters, digits, _ only");

const admin = new pg.Client({ connectionString: values.server });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${values.database} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${values.database}`);
await admin.end();
const url = new URL(values.server);
url.pathname = `/${values.database}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  const loaded = await loadDefogDatabases(client, values.defog);
  process.stderr.write(`loaded ${loaded.length} defog databases into ${url}\n`);
} finally {
  await client.end();
}
const pool = await buildDefogPool({ defogDirectory: values.defog, withoutGold: values["without-gold"] });
writeFileSync(values.out, `${pool.map((line) => JSON.stringify(line)).join("\n")}\n`);
const candidates = pool.reduce((total, line) => total + line.candidates.length, 0);
process.stderr.write(`wrote ${pool.length} questions, ${candidates} candidates to ${values.out}\n`);
process.stdout.write(`${url}\n`);
