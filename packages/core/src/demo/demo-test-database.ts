import pg from "pg";

/** Test helper: a uniquely named throwaway database on the test server, dropped by `drop()`. */
export interface ThrowawayDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** The server tests use: `NLQ_TEST_DATABASE_URL`, default postgresql://postgres@127.0.0.1:5432/postgres. */
export const testServerUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Creates `<prefix>_<pid>_<time>_<random>` on the test server. */
export async function createThrowawayDatabase(prefix: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
