import { randomBytes } from "node:crypto";
import pg from "pg";

/** Server the integration tests use: `NLQ_TEST_DATABASE_URL`, default the local PostgreSQL. */
export const testServerUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  readonly name: string;
  /** Connection URL of the throwaway database (as the server's superuser). */
  readonly url: string;
  /** URL of the same database for another role. */
  urlFor(role: string, password?: string): string;
  /** Drops the database (terminating leftover connections). */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named throwaway database (`<prefix>_<random>`, lower case), optionally running `setupSql` in it;
 * retries while template1 is busy (SQLSTATE 55006, up to 20 attempts). For integration tests only.
 */
export async function createTestDatabase(prefix: string, setupSql?: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const admin = new pg.Client({ connectionString: testServerUrl });
  await admin.connect();
  try {
    // CREATE DATABASE fails with 55006 while another session (other tests share this server) uses template1.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const urlFor = (role: string, password?: string) => {
    const url = new URL(testServerUrl);
    url.pathname = `/${name}`;
    url.username = role;
    url.password = password ?? "";
    return url.toString();
  };
  const url = urlFor(new URL(testServerUrl).username || "postgres");
  if (setupSql) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(setupSql);
    } finally {
      await client.end();
    }
  }
  return {
    name,
    url,
    urlFor,
    async drop() {
      const dropper = new pg.Client({ connectionString: testServerUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** Drops a role a test created on the test server (`DROP ROLE IF EXISTS`; its databases must be dropped first). */
export async function dropTestRole(role: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testServerUrl });
  await admin.connect();
  try {
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
  } finally {
    await admin.end();
  }
}
