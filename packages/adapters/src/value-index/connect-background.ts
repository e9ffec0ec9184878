import pg from "pg";
import { createPgExecutor } from "../postgres/pg-executor";
import type { BackgroundConnection } from "./background-value-index";

export interface BackgroundConnectionOptions {
  /**
   * Whether node-postgres may find a password the URL lacks where it usually looks (`PGPASSWORD`, `PGPASSFILE`,
   * `~/.pgpass`). Only for a URL this process itself opened the asking session with, from the same sources (`nlq eval`
   * given `--url`). Default false: the URL's own password or none.
   */
  readonly ambientCredentials?: boolean;
}

/**
 * A connection of its own for a background value-index build, to `url` (its role is the asking role). Its socket does
 * not keep the process alive: a build never delays a process that has nothing else left to do.
 *
 * Credentials: only the password in `url`, never one the process merely has at hand. For the proxy and the web app,
 * `url` is the upstream's address with the asking session's `current_user` and no password (`askingRoleUrl`): the
 * session was authenticated by its client, not by this process. node-postgres would otherwise fill the missing
 * password from `PGPASSWORD` or a password file, i.e. log in as that role with the runner's own secrets: a login nobody
 * asking presented (a confused deputy; in auditing, a connection of that role the role never made). Without a password
 * the connection succeeds only where the server asks for none (trust, peer: the server's own decision to admit this
 * host or OS user as that role); otherwise it fails and the question keeps the live value lookup. `ambientCredentials`
 * restores node-postgres's sources for a caller whose session used them itself.
 */
export async function connectBackground(
  url: string,
  options: BackgroundConnectionOptions = {},
): Promise<BackgroundConnection> {
  const client = new pg.Client({ connectionString: url, application_name: "nlq-background-value-index" });
  // node-postgres took PGPASSWORD for a URL without a password, and consults the password file when `password` is
  // null: the URL's own password (empty: none, which no password method accepts) replaces both.
  if (options.ambientCredentials !== true) client.password = decodeURIComponent(new URL(url).password);
  client.on("error", () => undefined); // A dropped connection fails the build's next read, which is handled there.
  await client.connect();
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  return { executor: createPgExecutor(client, { name: "nlq-background-value-index" }), close: () => client.end() };
}

/** The key of a database and role for `BackgroundValueIndexes`: the URL without its password. */
export function backgroundIndexKey(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  parsed.search = "";
  return parsed.toString();
}
