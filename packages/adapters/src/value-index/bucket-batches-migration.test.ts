import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataMigrationsFolder } from "../metadata/migrations-folder";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";

// Migration 0012 over a generation published before it: the migrations up to 0011 run by hand, a generation is
// written the way the publisher wrote it then (values with band keys, one sorted bucket row per band and key), then
// 0012 runs.
const folder = metadataMigrationsFolder(undefined);
const migration = (name: string) => readFileSync(`${folder}/${name}`, "utf8").split("--> statement-breakpoint");

let database: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase("nlq_bucket_batches_migration");
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe("migration 0012: bucket rows keyed by their first value number", () => {
  it("keeps a generation published before it whole, each bucket row keyed by its first value number", async () => {
    const files = readdirSync(folder)
      .filter((file) => file.endsWith(".sql"))
      .sort();
    const migrationFile = files.indexOf("0012_value-index-bucket-batches.sql");
    expect(migrationFile).toBeGreaterThan(0);
    for (const file of files.slice(0, migrationFile))
      for (const statement of migration(file)) await client.query(statement);
    const generation = (
      await client.query<{ id: number }>(
        `INSERT INTO value_index_generations (index_key, parameters_key, status, value_count)
         VALUES ('test:old', 'minhash3-b24-r2-s1', 'published', 3) RETURNING id`,
      )
    ).rows[0]!.id;
    await client.query(
      `INSERT INTO value_index_values (generation_id, value_number, value, band_keys)
       VALUES ($1, 0, 'Alameda', '{7,8}'), ($1, 1, 'Alpine', '{7,9}'), ($1, 2, 'Oakland', '{5,-8}')`,
      [generation],
    );
    await client.query(
      `INSERT INTO value_index_buckets (generation_id, band, bucket_key, value_numbers)
       VALUES ($1, 0, 7, '{0,1}'), ($1, 0, 5, '{2}'), ($1, 1, 8, '{0}'), ($1, 1, 9, '{1}'), ($1, 1, -8, '{2}')`,
      [generation],
    );

    for (const statement of migration(files[migrationFile]!)) await client.query(statement);

    const buckets = await client.query(
      `SELECT band, bucket_key, first_value_number, value_numbers FROM value_index_buckets
       WHERE generation_id = $1 AND band = 0 ORDER BY bucket_key`,
      [generation],
    );
    expect(buckets.rows).toEqual([
      { band: 0, bucket_key: 5, first_value_number: 2, value_numbers: [2] },
      { band: 0, bucket_key: 7, first_value_number: 0, value_numbers: [0, 1] },
    ]);
    const columns = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'value_index_values' ORDER BY column_name`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(["generation_id", "value", "value_number"]);
    const key = await client.query<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'value_index_buckets_pk'`,
    );
    expect(key.rows[0]?.definition).toBe("PRIMARY KEY (generation_id, band, bucket_key, first_value_number)");
    // A second row of a bucket (another batch of values) is allowed beside the first.
    await client.query(
      `INSERT INTO value_index_buckets (generation_id, band, bucket_key, first_value_number, value_numbers)
       VALUES ($1, 0, 7, 5, '{5,6}')`,
      [generation],
    );
  });
});
