import {
  type QueryResult,
  queryWithRowLimit,
  type ReadOnlyQuery,
  type ResultField,
  type TruncationReason,
} from "@nlq/engine";
import { PreparedQuestionChangedError, UnsupportedQuestionBatchError } from "./question-errors";

/** Rows as they go on the wire: text values as strings, binary values as bytes, SQL NULL as null. */
export type WireRow = ReadonlyArray<string | Buffer | null>;

/** An Execute's rows in the formats its Bind asked for. */
export interface FormattedRows {
  /** 0 (text) or 1 (binary) per column. */
  readonly formats: readonly number[];
  readonly rows: readonly WireRow[];
  readonly truncated: boolean;
  readonly truncatedBy?: TruncationReason;
  readonly command: string;
}

/**
 * The format code of each of `columnCount` result columns from a Bind's result format codes, as PostgreSQL reads
 * them: none means all text, one applies to every column, otherwise one per column. Throws
 * `UnsupportedQuestionBatchError` for a count that fits neither or a code other than 0 and 1.
 */
export function resultFormatsOf(codes: readonly number[], columnCount: number): number[] {
  if (codes.some((code) => code !== 0 && code !== 1)) {
    throw new UnsupportedQuestionBatchError(`unsupported result format code ${codes.find((code) => code > 1)}`);
  }
  if (codes.length === 0) return new Array<number>(columnCount).fill(0);
  if (codes.length === 1) return new Array<number>(columnCount).fill(codes[0]!);
  if (codes.length !== columnCount) {
    throw new UnsupportedQuestionBatchError(
      `bind message has ${codes.length} result formats but query has ${columnCount} columns`,
    );
  }
  return [...codes];
}

/**
 * Runs `sql` (validated, read-only scope) with the row and byte caps and returns its rows in `formats`. Binary
 * values are produced by PostgreSQL itself: each binary column goes through its type's send function (`pg_type.typsend`,
 * the function PostgreSQL uses for binary output) and comes back as hex `bytea`, so every type is encoded exactly as
 * PostgreSQL would. A type whose send function cannot be called from SQL (it takes `internal`) is refused. Throws
 * `PreparedQuestionChangedError` when the SQL no longer returns `fields`.
 */
export async function queryInFormats(
  query: ReadOnlyQuery,
  sql: string,
  fields: readonly ResultField[],
  formats: readonly number[],
  limits: { readonly rowLimit: number; readonly resultByteLimit?: number },
): Promise<FormattedRows> {
  if (formats.every((format) => format === 0)) {
    const capped = await queryWithRowLimit(query, sql, limits.rowLimit, limits.resultByteLimit);
    if (!sameColumns(capped.result.fields, fields)) throw new PreparedQuestionChangedError();
    return { formats, ...rowsOf(capped.result, capped.truncated, capped.truncatedBy) };
  }
  const described = await query(`SELECT * FROM (\n${sql}\n) AS nlq_result LIMIT 0`);
  if (!sameColumns(described.fields, fields)) throw new PreparedQuestionChangedError();
  const binaryTypes = [...new Set(fields.filter((_, index) => formats[index] === 1).map((field) => field.dataTypeId))];
  const senders = await query(
    "SELECT t.oid::pg_catalog.int8, pg_catalog.concat_ws('.', pg_catalog.quote_ident(n.nspname), pg_catalog.quote_ident(p.proname))," +
      " p.proargtypes[0] OPERATOR(pg_catalog.=) 'pg_catalog.internal'::pg_catalog.regtype" +
      " FROM pg_catalog.pg_type t JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) t.typsend" +
      " JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace" +
      ` WHERE t.oid OPERATOR(pg_catalog.=) ANY ('{${binaryTypes.map((oid) => Math.trunc(oid)).join(",")}}'::pg_catalog.oid[])`,
  );
  const sender = new Map<number, string>();
  for (const [oid, name, takesInternal] of senders.rows) {
    if (takesInternal === "t") continue;
    sender.set(Number(oid), name!);
  }
  const columns = fields.map((field, index) => {
    const column = `nlq_columns.c${index + 1}`;
    if (formats[index] === 0) return column;
    const send = sender.get(field.dataTypeId);
    if (send === undefined) {
      throw new UnsupportedQuestionBatchError(
        `binary results of type ${field.dataTypeId} (column "${field.name}") are not supported: ask for text`,
      );
    }
    return `${send}(${column})`;
  });
  await query("SELECT pg_catalog.set_config('bytea_output', 'hex', true)");
  const aliases = fields.map((_, index) => `c${index + 1}`).join(", ");
  const wrapped = `SELECT ${columns.join(", ")} FROM (\n${sql}\n) AS nlq_columns(${aliases})`;
  const capped = await queryWithRowLimit(query, wrapped, limits.rowLimit, limits.resultByteLimit);
  const text = rowsOf(capped.result, capped.truncated, capped.truncatedBy);
  const rows = text.rows.map((row) =>
    row.map((value, index) =>
      formats[index] === 1 && typeof value === "string" ? Buffer.from(value.slice(2), "hex") : value,
    ),
  );
  return { formats, ...text, rows };
}

function rowsOf(
  result: QueryResult,
  truncated: boolean,
  truncatedBy: TruncationReason | undefined,
): Omit<FormattedRows, "formats"> {
  return {
    rows: result.rows,
    truncated,
    ...(truncatedBy === undefined ? {} : { truncatedBy }),
    command: `SELECT ${result.rows.length}`,
  };
}

function sameColumns(left: readonly ResultField[], right: readonly ResultField[]): boolean {
  return (
    left.length === right.length &&
    left.every(
      (field, index) =>
        field.name === right[index]!.name &&
        field.dataTypeId === right[index]!.dataTypeId &&
        field.dataTypeModifier === right[index]!.dataTypeModifier,
    )
  );
}
