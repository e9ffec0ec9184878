import path from "node:path";
import { createTestDatabase, type TestDatabase, testServerUrl } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../launcher/launcher.test-helpers";
import { killSpawnedNlqProcesses, type NlqProcess, spawnNlq } from "./nlq-process.test-helpers";

// Two (then three) real `nlq proxy` processes on one metadata store (issue 30, item 2): the value index one builds is
// served to the others by the store, a replica killed mid-build loses nothing, and its lease is taken over.
const fixture = path.resolve(import.meta.dirname, "fixtures/replicas-model.json");
const question = "-- nl: which towns are called bad munstereifl?";
const leaseMilliseconds = 3_000;

let upstream: TestDatabase;
let metadata: TestDatabase;
let metadataAdmin: pg.Client;

beforeAll(async () => {
  upstream = await createTestDatabase(
    "nlq_replicas_upstream",
    `CREATE TABLE towns (name text NOT NULL);
     INSERT INTO towns SELECT 'Town ' || n FROM generate_series(1, 500) n;
     INSERT INTO towns VALUES ('Bad Münstereifel');`,
  );
  metadata = await createTestDatabase("nlq_replicas_metadata");
  metadataAdmin = new pg.Client({ connectionString: metadata.url });
  await metadataAdmin.connect();
}, 60_000);
afterAll(async () => {
  killSpawnedNlqProcesses();
  await metadataAdmin?.end();
  await upstream?.drop();
  await metadata?.drop();
});

interface Replica extends NlqProcess {
  readonly port: number;
}

async function startReplica(): Promise<Replica> {
  const port = await freePort();
  const server = new URL(testServerUrl);
  const replica = spawnNlq(["proxy", "--upstream", `postgresql://${server.host}`, "--listen", `127.0.0.1:${port}`], {
    NLQ_METADATA_URL: metadata.url,
    NLQ_MODEL: `scripted:${fixture}`,
    NLQ_PRESET: "fast",
    NLQ_VALUE_INDEX_LEASE_MS: String(leaseMilliseconds),
  });
  await until(() => replica.output().includes("listening on"), `nlq proxy did not start:\n${replica.output()}`);
  return { ...replica, port };
}

async function until(condition: () => boolean | Promise<boolean>, failure: string, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Asks the question through `replica` as the server's superuser; the answer's first cell. */
async function ask(replica: Replica): Promise<string> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port: replica.port,
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

async function metadataValue(sql: string): Promise<unknown> {
  return (await metadataAdmin.query(sql)).rows[0]?.value;
}

const publishedGeneration = () =>
  metadataValue(
    "SELECT id AS value FROM value_index_generations WHERE index_key LIKE 'background:%' AND status = 'published'",
  );
const bucketLookups = async () =>
  Number(
    await metadataValue(
      "SELECT coalesce(idx_scan, 0) AS value FROM pg_stat_user_indexes WHERE indexrelname = 'value_index_buckets_pk'",
    ),
  );

describe("two nlq proxy replicas on one metadata store", () => {
  it("take over a build a killed replica left, and serve the index one built to the others at once", async () => {
    const first = await startReplica();
    const second = await startReplica();

    // The first replica's question starts the background build; the store is held so that it stays mid-build.
    const holdStore = new pg.Client({ connectionString: metadata.url });
    await holdStore.connect();
    await holdStore.query("BEGIN");
    await holdStore.query("LOCK TABLE value_index_buckets IN ACCESS EXCLUSIVE MODE");
    expect(["found", "missing"]).toContain(await ask(first)); // answered by the live lookup meanwhile
    const firstPid = first.child.pid!;
    await until(
      async () =>
        String(await metadataValue("SELECT string_agg(holder, ',') AS value FROM value_index_leases")).includes(
          `:${firstPid}:`,
        ),
      "the first replica never took the build's lease",
    );
    // The second replica leaves the build to the lease's holder.
    await ask(second);
    expect(await publishedGeneration()).toBeUndefined();

    first.child.kill("SIGKILL");
    await first.exited;
    await holdStore.query("COMMIT");
    await holdStore.end();

    // Once the dead replica's lease expired, the second one's next question takes the build over and publishes it.
    await until(async () => {
      await ask(second);
      return (await publishedGeneration()) !== undefined;
    }, `the second replica never took the build over:\n${second.output()}`);
    const generation = await publishedGeneration();
    expect(await ask(second)).toBe("found");

    // A new replica answers from the stored index on its first question: no build of its own, the buckets are read.
    const third = await startReplica();
    const lookupsBefore = await bucketLookups();
    expect(await ask(third)).toBe("found");
    await until(async () => (await bucketLookups()) > lookupsBefore, "the third replica never read the stored buckets");
    expect(await publishedGeneration()).toBe(generation);

    // Killing the replica that built it loses nothing: the other goes on answering from the store.
    second.child.kill("SIGKILL");
    await second.exited;
    expect(await ask(third)).toBe("found");
    expect(await publishedGeneration()).toBe(generation);
    third.child.kill("SIGTERM");
    await third.exited;
  }, 240_000);
});
