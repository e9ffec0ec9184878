import pg from "pg";

/** Creates database `name` on the server at `adminUrl` unless it exists (safe when two processes race). */
export async function ensureDatabase(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query("select 1 from pg_catalog.pg_database where datname = $1", [name]);
    if (existing.rows.length > 0) return false;
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    // 42P04 duplicate_database: another process created it between the check and the create.
    if ((error as { code?: unknown }).code === "42P04") return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `postgresql://postgres:<password>@host:port/<database>` (the embedded superuser; SCRAM-SHA-256 on 127.0.0.1). */
export function embeddedDatabaseUrl(host: string, port: number, database: string, password: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`;
}
