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

const loopbackHosts = ["localhost", "127.0.0.1", "::1"];

/**
 * The names one database may have been recorded under: the URL's `host:port/database`, the server's own
 * `address:port/database` (`RoleAuthority.serverDataSource`), and — when the server answered on a loopback address —
 * the same port and database under `localhost`, `127.0.0.1` and `::1` (a proxy or web app configured with
 * `localhost` reaches the same server).
 */
export function dataSourceNames(databaseUrl: string, serverDataSource?: string): string[] {
  const names = new Set([dataSourceKey(databaseUrl)]);
  if (serverDataSource !== undefined) {
    names.add(serverDataSource);
    const match = /^(.*):(\d+)\/(.*)$/s.exec(serverDataSource);
    if (match && loopbackHosts.includes(match[1]!)) {
      for (const host of loopbackHosts) names.add(`${host}:${match[2]}/${match[3]}`);
    }
  }
  return [...names];
}
