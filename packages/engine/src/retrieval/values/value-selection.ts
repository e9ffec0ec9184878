/**
 * Which columns and values go into the value index (CHESS preprocessing, adapted to PostgreSQL).
 * Pure: takes column metadata and a sample of distinct values, returns a decision with a reason.
 *
 * Kept: text-like and enum columns holding names, categories, places, titles.
 * Skipped: non-text types, primary/foreign keys, identifier-like names (`*_id`, `uuid`, `url`, `email`,
 * `phone`, `date`, `time`), columns whose values mostly look like numbers, dates, URLs, emails or UUIDs,
 * and long free text (average length above `maxAverageLength`).
 * Values longer than `maxValueLength`, or that look like numbers/dates/URLs/emails/UUIDs, are dropped.
 */

export interface ColumnForSelection {
  readonly name: string;
  /** PostgreSQL type name as `format_type` or information_schema prints it (`text`, `character varying(50)`, `USER-DEFINED`). */
  readonly dataType: string;
  /** Whether the column is an enum (pg_type.typtype = 'e'); enums are categories and always kept. Default false. */
  readonly isEnum?: boolean;
  /** Part of a primary key. Default false. */
  readonly isPrimaryKey?: boolean;
  /** Part of a foreign key. Default false. */
  readonly isForeignKey?: boolean;
}

export interface ValueSelectionOptions {
  /** Values longer than this (in characters) are not indexed. Default 100. */
  readonly maxValueLength?: number;
  /** Columns whose sampled values average more characters than this are free text and skipped. Default 50. */
  readonly maxAverageLength?: number;
  /**
   * At most this many distinct values are indexed per column (the rest is cut and the column marked truncated).
   * Default 100,000: the largest text column of the 157 Spider warehouse databases has 15,928 distinct
   * values (wta_1.players.last_name), so the cap only bites on real high-cardinality columns (customer names), where it bounds memory
   * (about 190 bytes per value with the default 24 bands) instead of skipping the column.
   */
  readonly maxValuesPerColumn?: number;
}

export const DEFAULT_VALUE_SELECTION_OPTIONS: Required<ValueSelectionOptions> = {
  maxValueLength: 100,
  maxAverageLength: 50,
  maxValuesPerColumn: 100_000,
};

export type ColumnSelection =
  | { readonly keep: true; readonly values: string[]; readonly truncated: boolean; readonly droppedValues: number }
  | { readonly keep: false; readonly reason: string };

const TEXT_TYPE = /^(text|character varying|varchar|character|char|bpchar|citext|name)\b/i;
const IDENTIFIER_NAME =
  /(^id$|_id$|^id_|_ids?$|[a-z]Id$|uuid|guid|url|uri$|email|e_mail|phone|fax|password|hash|token|date|time|timestamp|zip|postcode|postal)/i;
const NUMBER = /^[-+]?[\d\s,.%$€£]*\d[\d\s,.%]*$/;
const DATE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}([ t]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?/i;
const TIME = /^\d{1,2}:\d{2}(:\d{2})?( ?[ap]\.?m\.?)?$/i;
const URL = /^(https?:\/\/|www\.)\S+$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Why a single value is not worth indexing, or undefined when it is. */
export function valueSkipReason(
  value: string,
  maxValueLength = DEFAULT_VALUE_SELECTION_OPTIONS.maxValueLength,
): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 0) return "empty";
  if (trimmed.length > maxValueLength) return "too long";
  if (NUMBER.test(trimmed)) return "number";
  if (DATE.test(trimmed) || TIME.test(trimmed)) return "date or time";
  if (URL.test(trimmed)) return "url";
  if (EMAIL.test(trimmed)) return "email";
  if (UUID.test(trimmed)) return "uuid";
  return undefined;
}

/** Why a column is not indexed judging by its metadata alone (before reading values), or undefined. */
export function columnSkipReason(column: ColumnForSelection): string | undefined {
  if (column.isPrimaryKey) return "primary key";
  if (column.isForeignKey) return "foreign key";
  if (column.isEnum) return undefined;
  if (!TEXT_TYPE.test(column.dataType)) return `non-text type ${column.dataType}`;
  if (IDENTIFIER_NAME.test(column.name)) return "identifier-like column name";
  return undefined;
}

const PLURAL_REASONS: Record<string, string> = {
  empty: "empty",
  "too long": "long text",
  number: "numbers",
  "date or time": "dates or times",
  url: "URLs",
  email: "emails",
  uuid: "UUIDs",
};

/** Decides whether a column is indexed and which of its distinct values (`sample`) are kept. */
export function selectColumnValues(
  column: ColumnForSelection,
  sample: readonly string[],
  options: ValueSelectionOptions = {},
): ColumnSelection {
  const { maxValueLength, maxAverageLength, maxValuesPerColumn } = { ...DEFAULT_VALUE_SELECTION_OPTIONS, ...options };
  const metadataReason = columnSkipReason(column);
  if (metadataReason !== undefined) return { keep: false, reason: metadataReason };
  if (sample.length === 0) return { keep: false, reason: "no values" };
  const totalLength = sample.reduce((sum, value) => sum + value.length, 0);
  if (!column.isEnum && totalLength / sample.length > maxAverageLength)
    return { keep: false, reason: "long free text" };
  const values: string[] = [];
  const reasons = new Map<string, number>();
  for (const value of sample) {
    const reason = valueSkipReason(value, maxValueLength);
    if (reason === undefined) values.push(value);
    else reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  if (values.length * 2 < sample.length) {
    const [mainReason] = [...reasons.entries()].sort((left, right) => right[1] - left[1])[0]!;
    return { keep: false, reason: `values are mostly ${PLURAL_REASONS[mainReason] ?? mainReason}` };
  }
  const truncated = values.length > maxValuesPerColumn;
  return {
    keep: true,
    values: truncated ? values.slice(0, maxValuesPerColumn) : values,
    truncated,
    droppedValues: sample.length - values.length,
  };
}
