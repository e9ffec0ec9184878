import { ConfigurationError } from "@nlq/engine";
import { sql } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { type DataSourceRow, dataSources } from "./schema/data-sources";

/**
 * Identity of a database connection without its secrets: `user@host:port/database`.
 * Two URLs differing only in password or parameters map to the same data source.
 */
export function connectionFingerprint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ConfigurationError("the database URL cannot be parsed", { cause: error });
  }
  const user = decodeURIComponent(parsed.username) || "postgres";
  const host = parsed.hostname || "localhost";
  const port = parsed.port || "5432";
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || user;
  return `${user}@${host}:${port}/${database}`;
}

/** Returns the data source of `url`, creating it on first use (name defaults to the database name). */
export async function ensureDataSource(
  database: MetadataDatabase,
  options: { readonly url: string; readonly name?: string },
): Promise<DataSourceRow> {
  const fingerprint = connectionFingerprint(options.url);
  const name = options.name ?? fingerprint.slice(fingerprint.lastIndexOf("/") + 1);
  const [row] = await database
    .insert(dataSources)
    .values({ name, connectionFingerprint: fingerprint })
    .onConflictDoUpdate({ target: dataSources.connectionFingerprint, set: { updatedAt: sql`now()` } })
    .returning();
  return row!;
}
