import { eq, like } from "drizzle-orm";
import { connectionFingerprint } from "../metadata/data-source-store";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { catalogTables } from "../metadata/schema/catalog";
import { type DataSourceRow, dataSources } from "../metadata/schema/data-sources";

/**
 * The indexed data source of a connection URL: the one with the same fingerprint (`user@host:port/database`), else
 * one indexed for the same server and database by another role — `nlq index` usually runs as an indexing role, and
 * the catalog is filtered by the asking role's privileges anyway. Undefined when nothing is indexed for the database.
 */
export async function findIndexedDataSource(
  database: MetadataDatabase,
  url: string,
): Promise<DataSourceRow | undefined> {
  const fingerprint = connectionFingerprint(url);
  const serverAndDatabase = fingerprint.slice(fingerprint.indexOf("@"));
  const candidates = await database
    .select()
    .from(dataSources)
    .where(like(dataSources.connectionFingerprint, `%${serverAndDatabase.replace(/[\\%_]/g, "\\$&")}`));
  const ordered = [
    ...candidates.filter((candidate) => candidate.connectionFingerprint === fingerprint),
    ...candidates.filter((candidate) => candidate.connectionFingerprint !== fingerprint),
  ];
  for (const candidate of ordered) {
    const [indexed] = await database
      .select({ id: catalogTables.id })
      .from(catalogTables)
      .where(eq(catalogTables.dataSourceId, candidate.id))
      .limit(1);
    if (indexed) return candidate;
  }
  return undefined;
}
