import pg from "pg";
import { createPgExecutor } from "../postgres/pg-executor";
import type { BackgroundConnection } from "./background-value-index";

/**
 * A connection of its own for a background value-index build, to `url` (its role is the asking role; a password comes
 * from the URL, `PGPASSWORD` or `~/.pgpass`, as node-postgres finds it). Its socket does not keep the process alive:
 * a build never delays a process that has nothing else left to do.
 */
export async function connectBackground(url: string): Promise<BackgroundConnection> {
  const client = new pg.Client({ connectionString: url, application_name: "nlq-background-value-index" });
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
