import { alwaysQuoteIdentifier } from "@nlq/engine";
import { loadDefogDatabases } from "@nlq/eval";
import pg from "pg";

/**
 * Creates `nlq_defog_<db>` on `server` (a superuser's URL) for each defog database a trial sample asks on, loaded
 * from `defogDirectory`, one database each; a database that exists already is kept as it is.
 */
export async function loadDefogTrialDatabases(
  server: string,
  defogDirectory: string,
  databases: readonly string[],
): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    for (const database of databases) {
      const name = `nlq_defog_${database}`;
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if ((exists.rowCount ?? 0) > 0) continue;
      await admin.query(`CREATE DATABASE ${alwaysQuoteIdentifier(name)}`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await loadDefogDatabases(client, defogDirectory, [database]);
      } finally {
        await client.end();
      }
    }
  } finally {
    await admin.end();
  }
}
