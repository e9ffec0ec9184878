import type { ColumnSegment, LshParameters } from "@nlq/engine";
import { columnKey, lshParametersKey, ValueIndexError } from "@nlq/engine";
import { and, eq, ne, sql } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import {
  type GenerationColumn,
  type ValueIndexGenerationRow,
  valueIndexGenerations,
} from "../metadata/schema/value-index-generations";
import { type BandBucketRows, type BandKeyPiece, groupBucketRows, MAX_VALUES_PER_BUCKET_BATCH } from "./bucket-rows";
import { integerArrayLiteral, metadataRows, textArrayLiteral } from "./metadata-rows";
import { type ValueIndexLease, ValueIndexLeaseLostError } from "./value-index-lease";

/** Values written per statement (one text array). */
const VALUES_PER_STATEMENT = 20_000;
/** Bucket rows written per statement (three arrays). */
const BUCKET_ROWS_PER_STATEMENT = 50_000;
/** Values grouped into bucket rows at once unless told otherwise (about 120 bytes a value held while grouping). */
export const DEFAULT_VALUES_PER_BUCKET_BATCH = 1_000_000;

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
  /**
   * Values whose band keys are held and grouped into bucket rows at once (1 … 2^21; default 1,000,000): a bucket has
   * one row per batch its values fall into, so fewer, larger batches mean fewer rows and more memory while building.
   */
  readonly valuesPerBucketBatch?: number;
}

/**
 * Writes a new generation of `indexKey` beside the published one and publishes it in one transaction that retires the
 * old one, which is deleted afterwards. Readers see the old generation until that commit and the new one after it,
 * never a half-built one. The values are written as they come (one statement of text array per 20,000); their band
 * keys are held for a batch of values (`valuesPerBucketBatch`), grouped into bucket rows here (`groupBucketRows`) and
 * written band after band (one statement of arrays per 50,000 rows). The caller holds the lease; generations another
 * (dead) builder left half-built are deleted first.
 */
export async function publishValueIndexGeneration(
  database: MetadataDatabase,
  options: PublishGenerationOptions,
): Promise<ValueIndexGenerationRow> {
  const { indexKey, lease } = options;
  const bands = options.parameters.bands;
  const batchSize = options.valuesPerBucketBatch ?? DEFAULT_VALUES_PER_BUCKET_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_VALUES_PER_BUCKET_BATCH) {
    throw new ValueIndexError(
      `valuesPerBucketBatch must be an integer from 1 to ${MAX_VALUES_PER_BUCKET_BATCH}, not ${batchSize}`,
    );
  }
  const parametersKey = lshParametersKey(options.parameters);
  await database
    .delete(valueIndexGenerations)
    .where(and(eq(valueIndexGenerations.indexKey, indexKey), ne(valueIndexGenerations.status, "published")));
  const [generation] = await database
    .insert(valueIndexGenerations)
    .values({
      indexKey,
      dataSourceId: options.dataSourceId ?? null,
      parametersKey,
      status: "building",
      sourceStamp: options.sourceStamp ?? "",
    })
    .returning();
  const generationId = generation!.id;
  try {
    const columns: GenerationColumn[] = [];
    let valueNumber = 0;
    let batch: BandKeyPiece[] = [];
    let batchValues = 0;
    const writeBatch = async () => {
      for (const rows of groupBucketRows(batch, bands)) {
        lease.signal.throwIfAborted();
        await writeBucketRows(database, generationId, rows);
      }
      batch = [];
      batchValues = 0;
    };
    for await (const segment of options.segments) {
      lease.signal.throwIfAborted();
      const { values, bandKeys } = segment;
      if (segment.parametersKey !== parametersKey || bandKeys.length !== values.length * bands) {
        throw new ValueIndexError(
          `segment of ${columnKey(segment.column)} (${segment.parametersKey}, ${bandKeys.length} band keys for ${values.length} values) does not fit ${parametersKey}`,
        );
      }
      columns.push({ ...segment.column, firstValue: valueNumber });
      for (let start = 0; start < values.length; start += VALUES_PER_STATEMENT) {
        const statementValues = values.slice(start, start + VALUES_PER_STATEMENT);
        await database.execute(
          sql`INSERT INTO value_index_values (generation_id, value_number, value)
              SELECT ${generationId}, ${valueNumber + start} + value.position::int4 - 1, value.text
              FROM unnest(${textArrayLiteral(statementValues)}::text[]) WITH ORDINALITY AS value(text, position)`,
        );
      }
      for (let start = 0; start < values.length; ) {
        const taken = Math.min(values.length - start, batchSize - batchValues);
        batch.push({
          firstValue: valueNumber + start,
          bandKeys: bandKeys.subarray(start * bands, (start + taken) * bands),
        });
        batchValues += taken;
        start += taken;
        if (batchValues === batchSize) await writeBatch();
      }
      valueNumber += values.length;
    }
    if (batchValues > 0) await writeBatch();
    lease.signal.throwIfAborted();
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

/**
 * Writes one band's bucket rows of a batch, `BUCKET_ROWS_PER_STATEMENT` rows a statement: their keys, first value
 * numbers and value number lists as three arrays (the lists as texts, each cast by the server; slicing one large
 * array per row would copy it each time).
 */
async function writeBucketRows(database: MetadataDatabase, generationId: number, rows: BandBucketRows): Promise<void> {
  for (let first = 0; first < rows.count; first += BUCKET_ROWS_PER_STATEMENT) {
    const end = Math.min(rows.count, first + BUCKET_ROWS_PER_STATEMENT);
    const firstValueNumbers = new Int32Array(end - first);
    const lists = new Array<string>(end - first);
    for (let row = first; row < end; row++) {
      const from = rows.starts[row]!;
      const to = rows.starts[row + 1]!;
      firstValueNumbers[row - first] = rows.numbers[from]!;
      let list = `"{${rows.numbers[from]}`;
      for (let at = from + 1; at < to; at++) list += `,${rows.numbers[at]}`;
      lists[row - first] = `${list}}"`;
    }
    await database.execute(
      sql`INSERT INTO value_index_buckets (generation_id, band, bucket_key, first_value_number, value_numbers)
          SELECT ${generationId}, ${rows.band}, bucket.key, bucket.first_value_number, bucket.value_numbers::int4[]
          FROM unnest(${integerArrayLiteral(rows.keys.subarray(first, end))}::int4[],
            ${integerArrayLiteral(firstValueNumbers)}::int4[], ${`{${lists.join(",")}}`}::text[])
            AS bucket(key, first_value_number, value_numbers)`,
    );
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
