import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as metadataSchema from "./schema";

/**
 * The drizzle database of the metadata store, whichever driver backs it (PGlite or node-postgres).
 * Query it with the tables exported from `./schema/index`.
 */
export type MetadataDatabase = PgDatabase<PgQueryResultHKT, typeof metadataSchema>;
