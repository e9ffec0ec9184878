/**
 * `host:port/database` of a database URL — no user, no password: the data source the audit trail and the verified
 * examples are kept by. `database` overrides the URL's database (a web user signed in to another database). The
 * database defaults to the user's name, as libpq does.
 */
export function dataSourceKey(databaseUrl: string, database?: string): string {
  const url = new URL(databaseUrl);
  const name = database ?? (decodeURIComponent(url.pathname.replace(/^\//, "")) || decodeURIComponent(url.username));
  return `${url.hostname || "localhost"}:${url.port || "5432"}/${name}`;
}
