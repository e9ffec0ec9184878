import { type QueryExecutor, runReadOnly, type Settings } from "@nlq/engine";
import { isNumericType } from "./chart-plan";
import { validatedSql } from "./run-edited-sql";

/** Rows fetched from the cursor per round trip. */
const fetchSize = 1_000;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, line break or edge spaces; NULL is empty. A text
 * value beginning with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so a spreadsheet shows it as
 * text instead of evaluating it (CSV formula injection); a value of a `numeric` column (a negative number) is left as
 * it is.
 */
export function csvField(value: string | null, numeric = false): string {
  if (value === null) return "";
  const text = !numeric && formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line ending in CRLF; `numericColumns[i]` marks column i as numbers (not guarded against formulas). */
export function csvLine(values: ReadonlyArray<string | null>, numericColumns: readonly boolean[] = []): string {
  return `${values.map((value, column) => csvField(value, numericColumns[column] === true)).join(",")}\r\n`;
}

export interface ExportCsvOptions {
  /** The user's own session; released by `onDone` when the export ends (finished, failed or cancelled). */
  readonly session: QueryExecutor;
  readonly sql: string;
  /** Statement timeout (per fetch) and allowed functions: the pipeline's. No row cap: the export is the full result. */
  readonly settings: Pick<Settings, "statementTimeoutMilliseconds" | "allowedFunctions" | "trustedOwners">;
  readonly abortSignal?: AbortSignal;
  /** Called once when the export ends; `failed` when it did not finish. */
  readonly onDone: (failed: boolean) => void;
}

/**
 * The full result of `sql` as a CSV byte stream: validated like a candidate, then read through a cursor in a read-only
 * transaction on the user's own session (`runReadOnly`, statement timeout per fetch), `fetchSize` rows at a time as
 * the client reads (backpressure), never held in memory whole and not cut by the display row cap. Resolves once the
 * first rows are fetched, so a validation or SQL error is thrown before any byte is sent.
 */
export async function exportCsv(options: ExportCsvOptions): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, undefined, {
    highWaterMark: 4,
  });
  const writer = writable.getWriter();
  let signalReady: (() => void) | undefined;
  let failReady: ((error: unknown) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    signalReady = resolve;
    failReady = reject;
  });
  let started = false;
  let numericColumns: boolean[] = [];

  const work = runReadOnly(
    {
      session: options.session,
      transactionStatus: "idle",
      statementTimeoutMilliseconds: options.settings.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    async (query) => {
      const sql = await validatedSql(query, options.sql, options.settings);
      await query(`DECLARE nlq_export NO SCROLL CURSOR FOR\n${sql}`);
      for (;;) {
        const batch = await query(`FETCH FORWARD ${fetchSize} FROM nlq_export`);
        if (!started) {
          started = true;
          numericColumns = batch.fields.map((field) => isNumericType(field.dataTypeId));
          signalReady?.();
          await writer.write(encoder.encode(csvLine(batch.fields.map((field) => field.name))));
        }
        if (batch.rows.length === 0) break;
        let text = "";
        for (const row of batch.rows) text += csvLine(row, numericColumns);
        await writer.ready;
        await writer.write(encoder.encode(text));
      }
      await query("CLOSE nlq_export");
    },
  );
  work.then(
    async () => {
      await writer.close().catch(() => undefined);
      options.onDone(false);
    },
    async (error: unknown) => {
      if (!started) failReady?.(error);
      await writer.abort(error).catch(() => undefined);
      options.onDone(true);
    },
  );
  await ready;
  return readable;
}
