import type { KeywordCandidates, KeywordSearchOptions, LshParameters, ValueColumn, ValueSearch } from "@nlq/engine";
import { keywordBandProbes, rankValueCandidates, readablePredicate } from "@nlq/engine";
import { sql } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import type { ValueIndexGenerationRow } from "../metadata/schema/value-index-generations";
import { integerArrayLiteral, metadataRows } from "./metadata-rows";

interface CandidateRow extends Record<string, unknown> {
  readonly keyword_number: number;
  readonly value_number: number;
  readonly collisions: number;
  readonly value: string;
}

/**
 * A published generation of a value index, searched where it is stored: a question's keywords are hashed to their band
 * keys here, one statement per keyword batch fetches the values sharing a bucket (the buckets' b-tree, then the values'
 * primary key) with their collision counts, limited to the readable columns' value ranges and to the `poolSize` most
 * colliding per keyword, and they are ranked here as `ValueIndex.search` ranks them (`rankValueCandidates`). Nothing of
 * the index is held by the process beyond its column list.
 */
export class StoredValueIndex implements ValueSearch {
  readonly generationId: number;
  readonly columns: readonly ValueColumn[];
  readonly valueCount: number;
  readonly #database: MetadataDatabase;
  readonly #parameters: LshParameters;
  readonly #firstValues: readonly number[];

  constructor(database: MetadataDatabase, generation: ValueIndexGenerationRow, parameters: LshParameters) {
    this.#database = database;
    this.#parameters = parameters;
    this.generationId = generation.id;
    this.valueCount = generation.valueCount;
    this.columns = generation.columns.map(({ schema, table, column }) => ({ schema, table, column }));
    this.#firstValues = generation.columns.map((column) => column.firstValue);
  }

  /** The column of value `valueNumber`. */
  columnOf(valueNumber: number): ValueColumn {
    let low = 0;
    let high = this.#firstValues.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.#firstValues[middle]! <= valueNumber) low = middle;
      else high = middle - 1;
    }
    return this.columns[low]!;
  }

  async searchKeywords(options: KeywordSearchOptions): Promise<KeywordCandidates[]> {
    const limit = options.limit ?? 10;
    const poolSize = Math.max(limit, options.poolSize ?? 200);
    const isReadable = readablePredicate(options.readableColumns);
    const ranges: string[] = [];
    this.columns.forEach((column, position) => {
      const end = this.#firstValues[position + 1] ?? this.valueCount;
      if (end > this.#firstValues[position]! && isReadable(column))
        ranges.push(`[${this.#firstValues[position]},${end})`);
    });
    const { keywordNumbers, bands, keys } = keywordBandProbes(options.keywords, this.#parameters);
    const byKeyword = new Map<number, CandidateRow[]>();
    if (keys.length > 0 && ranges.length > 0) {
      options.abortSignal?.throwIfAborted();
      const rows = await metadataRows<CandidateRow>(
        this.#database,
        sql`WITH probe AS (
              SELECT * FROM unnest(${integerArrayLiteral(keywordNumbers)}::int4[], ${integerArrayLiteral(bands)}::int2[],
                ${integerArrayLiteral(keys)}::int4[]) AS probe(keyword_number, band, bucket_key)
            ), hits AS (
              SELECT probe.keyword_number, hit.value_number, count(*)::int4 AS collisions
              FROM probe
              JOIN value_index_buckets bucket ON bucket.generation_id = ${this.generationId}
                AND bucket.band = probe.band AND bucket.bucket_key = probe.bucket_key
              CROSS JOIN LATERAL unnest(bucket.value_numbers) AS hit(value_number)
              WHERE hit.value_number <@ ${`{${ranges.join(",")}}`}::int4multirange
              GROUP BY probe.keyword_number, hit.value_number
            ), ranked AS (
              SELECT hits.*, row_number() OVER (PARTITION BY keyword_number ORDER BY collisions DESC, value_number)
                AS position
              FROM hits
            )
            SELECT ranked.keyword_number, ranked.value_number, ranked.collisions, stored.value
            FROM ranked
            JOIN value_index_values stored ON stored.generation_id = ${this.generationId}
              AND stored.value_number = ranked.value_number
            WHERE ranked.position <= ${poolSize}
            ORDER BY ranked.keyword_number, ranked.position`,
      );
      for (const row of rows) {
        const keywordNumber = Number(row.keyword_number);
        const list = byKeyword.get(keywordNumber) ?? [];
        list.push(row);
        byKeyword.set(keywordNumber, list);
      }
    }
    return options.keywords.map((keyword, keywordNumber) => ({
      keyword,
      candidates: rankValueCandidates(
        keyword,
        (byKeyword.get(keywordNumber) ?? []).map((row) => ({
          column: this.columnOf(Number(row.value_number)),
          value: row.value,
          collisions: Number(row.collisions),
          order: Number(row.value_number),
        })),
        isReadable,
        limit,
        poolSize,
      ),
    }));
  }
}
