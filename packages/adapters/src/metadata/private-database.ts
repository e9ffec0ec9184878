import pg from "pg";
import { ensureDatabase } from "../embedded-postgres/ensure-database";

/**
 * Creates database `name` on the server at `adminUrl` unless it exists, and keeps it private to its owner and the
 * superusers: `CONNECT` and `TEMPORARY` revoked from `PUBLIC` on the database and every privilege on its `public`
 * schema, so a client role (a user signed in to the web app, or connected through the proxy, to another database
 * of the same server) cannot even connect to the metadata store, let alone rewrite `llm_cache`. Idempotent: run at
 * every open, it also closes a database an older nlq created open. Returns whether it created the database.
 */
export async function ensurePrivateDatabase(adminUrl: string, name: string): Promise<boolean> {
  const created = await ensureDatabase(adminUrl, name);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`revoke all on database ${admin.escapeIdentifier(name)} from public`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  const inside = new pg.Client({ connectionString: url.toString() });
  await inside.connect();
  try {
    await inside.query("revoke all on schema public from public");
  } finally {
    await inside.end().catch(() => undefined);
  }
  return created;
}
