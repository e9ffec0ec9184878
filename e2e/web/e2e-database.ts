import pg from "pg";

/** The local PostgreSQL the e2e database is created on. */
export const adminDatabaseUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * The embedded superuser's password in launcher mode: serve-launcher writes it to the new NLQ_HOME's password file
 * before `nlq start` (which then uses it instead of generating one). The direct mode's server trusts any password.
 */
export const e2eSuperuserPassword = "nlqE2eSuperuserPassword";

/** The throwaway database of this run (named by playwright.config.ts). */
export function e2eDatabaseName(): string {
  const name = process.env.NLQ_E2E_DATABASE;
  if (!name || !/^nlq_e2e_web_[a-z0-9_]+$/.test(name)) {
    throw new Error(`NLQ_E2E_DATABASE is missing or not an nlq e2e database name: ${name ?? "(unset)"}`);
  }
  return name;
}

/** The URL of `database` on the admin server. */
export function databaseUrl(database: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the admin database. */
export async function runAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops the run's database, closing its remaining connections (PostgreSQL 13+). */
export async function dropE2eDatabase(): Promise<void> {
  await runAdmin(`DROP DATABASE IF EXISTS ${e2eDatabaseName()} WITH (FORCE)`);
}
