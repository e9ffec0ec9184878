import type { ColumnSegment, ValueIndex } from "@nlq/engine";
import {
  columnKey,
  type LshParameters,
  lshParametersKey,
  type ValueColumn,
  ValueIndexBuilder,
  ValueIndexError,
} from "@nlq/engine";
import { and, asc, count, eq, inArray, max, sum } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import {
  type ValueIndexChunkRow,
  type ValueIndexColumnRow,
  valueIndexChunks,
  valueIndexColumns,
} from "../metadata/schema/value-index";

/** Values per stored chunk row. */
const CHUNK_SIZE = 4_096;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What the store knows about one column of a data source. */
export interface StoredValueColumn {
  readonly column: ValueColumn;
  readonly parametersKey: string;
  readonly valueCount: number;
  readonly truncated: boolean;
  readonly skipReason: string | null;
  readonly builtAt: Date;
}

/**
 * Persistence of the value index in the metadata store (tables `value_index_columns`, `value_index_chunks`).
 * Columns are saved and replaced one at a time, so a data source is re-indexed incrementally; loading reads
 * stored band keys and never re-hashes.
 */
export class ValueIndexStore {
  readonly name = "metadata-value-index-store";
  readonly #database: MetadataDatabase;

  constructor(database: MetadataDatabase) {
    this.#database = database;
  }

  /** Saves (or replaces) an indexed column with its values and band keys. */
  async saveColumn(dataSourceId: string, segment: ColumnSegment, options: { truncated?: boolean } = {}): Promise<void> {
    await this.#database.transaction(async (transaction) => {
      await deleteColumnRow(transaction as unknown as MetadataDatabase, dataSourceId, segment.column);
      const [row] = await transaction
        .insert(valueIndexColumns)
        .values({
          dataSourceId,
          schemaName: segment.column.schema,
          tableName: segment.column.table,
          columnName: segment.column.column,
          parametersKey: segment.parametersKey,
          valueCount: segment.values.length,
          truncated: options.truncated ?? false,
        })
        .returning({ id: valueIndexColumns.id });
      const bands = segment.values.length === 0 ? 0 : segment.bandKeys.length / segment.values.length;
      for (let start = 0, chunkNumber = 0; start < segment.values.length; start += CHUNK_SIZE, chunkNumber++) {
        const values = segment.values.slice(start, start + CHUNK_SIZE);
        await transaction.insert(valueIndexChunks).values({
          columnId: row!.id,
          chunkNumber,
          valueCount: values.length,
          values: encodeValues(values),
          bandKeys: encodeKeys(segment.bandKeys.subarray(start * bands, (start + values.length) * bands)),
        });
      }
    });
  }

  /** Records that a column was considered and skipped (replacing whatever was stored for it). */
  async saveSkippedColumn(
    dataSourceId: string,
    column: ValueColumn,
    reason: string,
    parameters: LshParameters,
  ): Promise<void> {
    await this.#database.transaction(async (transaction) => {
      await deleteColumnRow(transaction as unknown as MetadataDatabase, dataSourceId, column);
      await transaction.insert(valueIndexColumns).values({
        dataSourceId,
        schemaName: column.schema,
        tableName: column.table,
        columnName: column.column,
        parametersKey: lshParametersKey(parameters),
        valueCount: 0,
        skipReason: reason,
      });
    });
  }

  /** Forgets a column (e.g. it was dropped). */
  async deleteColumn(dataSourceId: string, column: ValueColumn): Promise<void> {
    await deleteColumnRow(this.#database, dataSourceId, column);
  }

  /** Every column stored for the data source, indexed or skipped. */
  async listColumns(dataSourceId: string): Promise<StoredValueColumn[]> {
    const rows = await this.#database
      .select()
      .from(valueIndexColumns)
      .where(eq(valueIndexColumns.dataSourceId, dataSourceId))
      .orderBy(asc(valueIndexColumns.schemaName), asc(valueIndexColumns.tableName), asc(valueIndexColumns.columnName));
    return rows.map((row) => ({
      column: { schema: row.schemaName, table: row.tableName, column: row.columnName },
      parametersKey: row.parametersKey,
      valueCount: row.valueCount,
      truncated: row.truncated,
      skipReason: row.skipReason,
      builtAt: row.builtAt,
    }));
  }

  /**
   * What the stored columns of the data source are now, as one text: it changes whenever a column is saved, replaced
   * or deleted (column count, value count, latest build). A served generation built from another state is stale.
   */
  async sourceStamp(dataSourceId: string, parameters: LshParameters): Promise<string> {
    const [row] = await this.#database
      .select({ columns: count(), values: sum(valueIndexColumns.valueCount), latest: max(valueIndexColumns.builtAt) })
      .from(valueIndexColumns)
      .where(
        and(
          eq(valueIndexColumns.dataSourceId, dataSourceId),
          eq(valueIndexColumns.parametersKey, lshParametersKey(parameters)),
        ),
      );
    return `${row?.columns ?? 0}/${row?.values ?? 0}/${row?.latest ? new Date(row.latest).toISOString() : ""}`;
  }

  /** The stored segments hashed with `parameters` (columns hashed with other parameters are left out). */
  async loadSegments(dataSourceId: string, parameters: LshParameters): Promise<ColumnSegment[]> {
    const segments: ColumnSegment[] = [];
    for await (const segment of this.iterateSegments(dataSourceId, parameters)) segments.push(segment);
    return segments;
  }

  /**
   * The stored segments, read `columnsPerBatch` columns at a time so that a large index is never held twice
   * (stored bytes and decoded values) in full. Ordered by schema, table, column.
   */
  async *iterateSegments(
    dataSourceId: string,
    parameters: LshParameters,
    columnsPerBatch = 200,
  ): AsyncGenerator<ColumnSegment> {
    const parametersKey = lshParametersKey(parameters);
    const columns = await this.#database
      .select()
      .from(valueIndexColumns)
      .where(and(eq(valueIndexColumns.dataSourceId, dataSourceId), eq(valueIndexColumns.parametersKey, parametersKey)))
      .orderBy(asc(valueIndexColumns.schemaName), asc(valueIndexColumns.tableName), asc(valueIndexColumns.columnName));
    const indexed = columns.filter((column) => column.skipReason === null && column.valueCount > 0);
    for (let start = 0; start < indexed.length; start += columnsPerBatch) {
      const batch = indexed.slice(start, start + columnsPerBatch);
      const chunks = await this.#database
        .select()
        .from(valueIndexChunks)
        .where(
          inArray(
            valueIndexChunks.columnId,
            batch.map((column) => column.id),
          ),
        )
        .orderBy(asc(valueIndexChunks.columnId), asc(valueIndexChunks.chunkNumber));
      const chunksByColumn = new Map<string, typeof chunks>();
      for (const chunk of chunks) {
        const list = chunksByColumn.get(chunk.columnId) ?? [];
        list.push(chunk);
        chunksByColumn.set(chunk.columnId, list);
      }
      for (const row of batch) yield decodeSegment(row, chunksByColumn.get(row.id) ?? [], parameters, parametersKey);
    }
  }

  /** Loads the data source's index (no re-hashing). */
  async loadIndex(dataSourceId: string, parameters: LshParameters): Promise<ValueIndex> {
    const builder = new ValueIndexBuilder(parameters);
    for await (const segment of this.iterateSegments(dataSourceId, parameters)) builder.addSegment(segment);
    return builder.build();
  }
}

function decodeSegment(
  row: ValueIndexColumnRow,
  chunks: readonly ValueIndexChunkRow[],
  parameters: LshParameters,
  parametersKey: string,
): ColumnSegment {
  const column = { schema: row.schemaName, table: row.tableName, column: row.columnName };
  const values: string[] = [];
  const bandKeys = new Uint32Array(row.valueCount * parameters.bands);
  let keyOffset = 0;
  for (const chunk of chunks) {
    const chunkValues = decodeValues(chunk.values);
    const chunkKeys = decodeKeys(chunk.bandKeys);
    if (
      chunkValues.length !== chunk.valueCount ||
      chunkKeys.length !== chunk.valueCount * parameters.bands ||
      keyOffset + chunkKeys.length > bandKeys.length
    ) {
      throw new ValueIndexError(
        `stored value index chunk ${chunk.chunkNumber} of ${columnKey(column)} is inconsistent`,
      );
    }
    for (const value of chunkValues) values.push(value);
    bandKeys.set(chunkKeys, keyOffset);
    keyOffset += chunkKeys.length;
  }
  if (values.length !== row.valueCount) {
    throw new ValueIndexError(
      `stored value index of ${columnKey(column)} has ${values.length} of ${row.valueCount} values`,
    );
  }
  return { column, values, bandKeys, parametersKey };
}

async function deleteColumnRow(database: MetadataDatabase, dataSourceId: string, column: ValueColumn): Promise<void> {
  await database
    .delete(valueIndexColumns)
    .where(
      and(
        eq(valueIndexColumns.dataSourceId, dataSourceId),
        eq(valueIndexColumns.schemaName, column.schema),
        eq(valueIndexColumns.tableName, column.table),
        eq(valueIndexColumns.columnName, column.column),
      ),
    );
}

function encodeValues(values: readonly string[]): Uint8Array {
  return encoder.encode(values.map((value) => `${value}\u0000`).join(""));
}

function decodeValues(bytes: Uint8Array): string[] {
  const text = decoder.decode(bytes);
  return text.length === 0 ? [] : text.slice(0, -1).split("\u0000");
}

function encodeKeys(keys: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(keys.length * 4);
  if (LITTLE_ENDIAN) bytes.set(new Uint8Array(keys.buffer, keys.byteOffset, keys.byteLength));
  else {
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < keys.length; index++) view.setUint32(index * 4, keys[index]!, true);
  }
  return bytes;
}

function decodeKeys(bytes: Uint8Array): Uint32Array {
  const keys = new Uint32Array(bytes.length / 4);
  if (LITTLE_ENDIAN) new Uint8Array(keys.buffer).set(bytes);
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let index = 0; index < keys.length; index++) keys[index] = view.getUint32(index * 4, true);
  }
  return keys;
}
