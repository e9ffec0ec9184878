import type { SQL } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";

/** Runs raw SQL on the metadata store and returns its rows as objects, whichever driver backs it (PGlite, pg). */
export async function metadataRows<ROW extends Record<string, unknown>>(
  database: MetadataDatabase,
  statement: SQL,
): Promise<ROW[]> {
  const result = (await database.execute(statement)) as unknown as { rows?: ROW[] } | ROW[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** A PostgreSQL array literal of integers (`{1,2,3}`), sent as one text parameter and cast in the statement. */
export function integerArrayLiteral(values: ArrayLike<number>): string {
  return `{${Array.prototype.join.call(values, ",")}}`;
}

/** A PostgreSQL array literal of texts (`{"a","b \\"c\\""}`), each element quoted and escaped, for one text parameter. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}
