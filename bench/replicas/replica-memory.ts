// Resident memory of an `nlq proxy` replica whose value index the metadata store serves (issue 30, item 2): a store
// holding a background index of N values for the asked database, a fresh proxy, one fuzzy value lookup through it,
// then its RSS (VmRSS of /proc/<pid>/status). Beside it, the same with a 501-value index: the index's share of a
// replica's memory is the difference.
//   npx tsx bench/replicas/replica-memory.ts --values 1000000
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { acquireValueIndexLease, openMetadataStore, publishValueIndexGeneration } from "@nlq/adapters";
import { createTestDatabase, testServerUrl } from "@nlq/adapters/testing";
import { DEFAULT_LSH_PARAMETERS, hashColumnSegment } from "@nlq/engine";
import { generateColumnValues } from "@nlq/eval";
import pg from "pg";

const { values: flags } = parseArgs({ options: { values: { type: "string", default: "1000000" } } });
const valueCount = Number(flags.values);
const root = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(root, "apps/cli/src/cli/fixtures/replicas-model.json");
const question = "-- nl: which towns are called bad munstereifl?";

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const rssMegabytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const upstream = await createTestDatabase(
  "nlq_bench_replica_upstream",
  `CREATE TABLE towns (name text NOT NULL);
   INSERT INTO towns SELECT 'Town ' || n FROM generate_series(1, 500) n; INSERT INTO towns VALUES ('Bad Münstereifel');`,
);
const metadata = await createTestDatabase("nlq_bench_replica_metadata");
const children: ChildProcess[] = [];

async function startProxy(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(root, "apps/cli/bin/nlq.mjs"),
      "proxy",
      "--upstream",
      `postgresql://${new URL(testServerUrl).host}`,
      "--listen",
      `127.0.0.1:${port}`,
    ],
    {
      env: { ...process.env, NLQ_METADATA_URL: metadata.url, NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  while (!output.includes("listening on")) await sleep(100);
  return { child, port };
}

async function ask(port: number): Promise<string> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: new URL(testServerUrl).username || "postgres",
    database: upstream.name,
  });
  await client.connect();
  try {
    const result = await client.query(question);
    return String(Object.values(result.rows[0] ?? {})[0]);
  } finally {
    await client.end();
  }
}

const admin = new pg.Client({ connectionString: metadata.url });
await admin.connect();
const publishedKey = async () =>
  (
    await admin.query<{ index_key: string; value_count: number }>(
      "SELECT index_key, value_count FROM value_index_generations WHERE status = 'published'",
    )
  ).rows[0];
try {
  // A first replica builds the small background index of the database (501 values) under its asking role's key.
  const builder = await startProxy();
  await ask(builder.port);
  while (!(await publishedKey())) await sleep(200);
  const key = (await publishedKey())!.index_key;
  builder.child.kill("SIGTERM");
  await new Promise((resolve) => builder.child.once("exit", resolve));

  const measure = async (label: string) => {
    const replica = await startProxy();
    const idle = rssMegabytes(replica.child.pid!);
    const answer = await ask(replica.port);
    const afterLookup = rssMegabytes(replica.child.pid!);
    const stored = (await publishedKey())!.value_count;
    process.stdout.write(
      `| ${label} | ${stored.toLocaleString("en-US")} | ${answer} | ${idle.toFixed(0)} | ${afterLookup.toFixed(0)} |\n`,
    );
    replica.child.kill("SIGTERM");
    await new Promise((resolve) => replica.child.once("exit", resolve));
  };
  process.stdout.write(
    "| index | values stored | answer | RSS idle MB | RSS after first fuzzy lookup MB |\n|---|---|---|---|---|\n",
  );
  await measure("small");

  // The same key now holds N generated values beside the town column (published as `nlq index` or a build would).
  const store = await openMetadataStore({ url: metadata.url });
  const lease = (await acquireValueIndexLease(store.database, key, { ttlMilliseconds: 3_600_000 }))!;
  const started = performance.now();
  async function* segments() {
    yield hashColumnSegment(
      { schema: "public", table: "towns", column: "name" },
      [...Array.from({ length: 500 }, (_, index) => `Town ${index + 1}`), "Bad Münstereifel"],
      DEFAULT_LSH_PARAMETERS,
    );
    for (const column of generateColumnValues(valueCount - 501)) {
      yield hashColumnSegment(column.column, column.values, DEFAULT_LSH_PARAMETERS);
    }
  }
  await publishValueIndexGeneration(store.database, {
    indexKey: key,
    parameters: DEFAULT_LSH_PARAMETERS,
    segments: segments(),
    lease,
  });
  await lease.release();
  await store.close();
  process.stderr.write(`published ${valueCount} values in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  await measure("large");
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await admin.end();
  await upstream.drop();
  await metadata.drop();
}
