import type { ColumnSegment, LshParameters } from "@nlq/engine";
import { lshParametersKey } from "@nlq/engine";
import { and, eq, ne, sql } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import {
  type GenerationColumn,
  type ValueIndexGenerationRow,
  valueIndexGenerations,
  valueIndexValues,
} from "../metadata/schema/value-index-generations";
import { metadataRows } from "./metadata-rows";
import { type ValueIndexLease, ValueIndexLeaseLostError } from "./value-index-lease";

/** Values inserted per statement (3 parameters each, under PostgreSQL's 65,535). */
const VALUES_PER_INSERT = 2_000;

/** The index key of what `nlq index` built for a data source. */
export function dataSourceIndexKey(dataSourceId: string): string {
  return `data-source:${dataSourceId}`;
}

/** The index key of a background index: the database and role (`backgroundIndexKey`, a URL without password). */
export function backgroundGenerationKey(databaseAndRole: string): string {
  return `background:${databaseAndRole}`;
}

export interface PublishGenerationOptions {
  readonly indexKey: string;
  readonly dataSourceId?: string;
  readonly parameters: LshParameters;
  /** The columns' values and band keys, column after column. */
  readonly segments: AsyncIterable<ColumnSegment> | Iterable<ColumnSegment>;
  readonly sourceStamp?: string;
  readonly incompleteColumns?: Iterable<string>;
  /** The lease the build runs under: checked in the publishing transaction (a builder that lost it publishes nothing). */
  readonly lease: ValueIndexLease;
}

/**
 * Writes a new generation of `indexKey` beside the published one (values, then buckets grouped by the server from the
 * values' band keys) and publishes it in one transaction that retires the old one, which is deleted afterwards. Readers
 * see the old generation until that commit and the new one after it, never a half-built one. The caller holds the
 * lease; generations another (dead) builder left half-built are deleted first.
 */
export async function publishValueIndexGeneration(
  database: MetadataDatabase,
  options: PublishGenerationOptions,
): Promise<ValueIndexGenerationRow> {
  const { indexKey, lease } = options;
  await database
    .delete(valueIndexGenerations)
    .where(and(eq(valueIndexGenerations.indexKey, indexKey), ne(valueIndexGenerations.status, "published")));
  const [generation] = await database
    .insert(valueIndexGenerations)
    .values({
      indexKey,
      dataSourceId: options.dataSourceId ?? null,
      parametersKey: lshParametersKey(options.parameters),
      status: "building",
      sourceStamp: options.sourceStamp ?? "",
    })
    .returning();
  const generationId = generation!.id;
  try {
    const bands = options.parameters.bands;
    const columns: GenerationColumn[] = [];
    let valueNumber = 0;
    for await (const segment of options.segments) {
      lease.signal.throwIfAborted();
      columns.push({ ...segment.column, firstValue: valueNumber });
      for (let start = 0; start < segment.values.length; start += VALUES_PER_INSERT) {
        const rows = segment.values.slice(start, start + VALUES_PER_INSERT).map((value, offset) => {
          const at = (start + offset) * bands;
          const keys = new Array<number>(bands);
          for (let band = 0; band < bands; band++) keys[band] = segment.bandKeys[at + band]! | 0;
          return { generationId, valueNumber: valueNumber + start + offset, value, bandKeys: keys };
        });
        await database.insert(valueIndexValues).values(rows);
      }
      valueNumber += segment.values.length;
    }
    lease.signal.throwIfAborted();
    await database.execute(
      sql`INSERT INTO value_index_buckets (generation_id, band, bucket_key, value_numbers)
          SELECT ${generationId}, key.band - 1, key.bucket_key, array_agg(v.value_number ORDER BY v.value_number)
          FROM value_index_values v, unnest(v.band_keys) WITH ORDINALITY AS key(bucket_key, band)
          WHERE v.generation_id = ${generationId}
          GROUP BY key.band, key.bucket_key`,
    );
    const published = await database.transaction(async (transaction) => {
      const held = await metadataRows(
        transaction as unknown as MetadataDatabase,
        sql`SELECT holder FROM value_index_leases
            WHERE index_key = ${indexKey} AND holder = ${lease.holder} AND expires_at >= now() FOR UPDATE`,
      );
      if (held.length === 0) throw new ValueIndexLeaseLostError(`the lease on ${indexKey} was lost before publishing`);
      await transaction
        .update(valueIndexGenerations)
        .set({ status: "retired" })
        .where(and(eq(valueIndexGenerations.indexKey, indexKey), eq(valueIndexGenerations.status, "published")));
      const [row] = await transaction
        .update(valueIndexGenerations)
        .set({
          status: "published",
          columns,
          incompleteColumns: [...(options.incompleteColumns ?? [])],
          valueCount: valueNumber,
          publishedAt: sql`now()`,
        })
        .where(eq(valueIndexGenerations.id, generationId))
        .returning();
      return row!;
    });
    await database
      .delete(valueIndexGenerations)
      .where(and(eq(valueIndexGenerations.indexKey, indexKey), eq(valueIndexGenerations.status, "retired")));
    return published;
  } catch (error) {
    await database
      .delete(valueIndexGenerations)
      .where(eq(valueIndexGenerations.id, generationId))
      .catch(() => undefined);
    throw error;
  }
}

/** The published generation of `indexKey`, if any. */
export async function publishedValueIndexGeneration(
  database: MetadataDatabase,
  indexKey: string,
): Promise<ValueIndexGenerationRow | undefined> {
  const [row] = await database
    .select()
    .from(valueIndexGenerations)
    .where(and(eq(valueIndexGenerations.indexKey, indexKey), eq(valueIndexGenerations.status, "published")));
  return row;
}
