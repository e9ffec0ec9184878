import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openMetadataStore } from "./open-metadata-store";
import { ensurePrivateDatabase } from "./private-database";

const adminUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const suffix = randomUUID().replaceAll("-", "").slice(0, 12);
const databaseName = `nlq_private_${suffix}`;
const clientRole = `nlq_client_${suffix}`;

function urlFor(database: string, user?: string, password?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  if (user !== undefined) url.username = user;
  if (password !== undefined) url.password = password;
  return url.toString();
}

async function run(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await run(adminUrl, `drop database if exists ${databaseName} with (force)`);
  await run(adminUrl, `drop role if exists ${clientRole}`);
});

describe("ensurePrivateDatabase (the metadata store's database)", () => {
  it("keeps client roles of the same server out: no connection, and no write to llm_cache even when granted one", async () => {
    expect(await ensurePrivateDatabase(adminUrl, databaseName)).toBe(true);
    expect(await ensurePrivateDatabase(adminUrl, databaseName)).toBe(false);
    const store = await openMetadataStore({ url: urlFor(databaseName) });
    await store.llmCache.put(
      { model: "m", step: "generate-candidate", prompt: "p", temperature: 0, sample: 0 },
      { output: { sql: "select 1" }, inputTokens: 1, outputTokens: 1 },
    );
    await store.close();
    await run(adminUrl, `create role ${clientRole} login password 'client'`);

    const asClient = urlFor(databaseName, clientRole, "client");
    await expect(run(asClient, "select 1")).rejects.toMatchObject({ code: "42501" });
    // Even a role someone grants CONNECT to can neither read nor rewrite the cache.
    await run(adminUrl, `grant connect on database ${databaseName} to ${clientRole}`);
    await expect(run(asClient, "update public.llm_cache set response = '{}'")).rejects.toMatchObject({ code: "42501" });
    await expect(run(asClient, "select * from public.llm_cache")).rejects.toMatchObject({ code: "42501" });
    await expect(run(asClient, "create table public.planted (x int)")).rejects.toMatchObject({ code: "42501" });
  });
});
