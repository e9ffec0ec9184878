import { type QueryExecutor, runReadOnly, type Settings } from "@nlq/engine";
import { validatedSql } from "./run-edited-sql";

/** Rows fetched from the cursor per round trip. */
const fetchSize = 1_000;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote, line break or edge spaces; NULL is empty. */
export function csvField(value: string | null): string {
  if (value === null) return "";
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line ending in CRLF. */
export function csvLine(values: ReadonlyArray<string | null>): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

export interface ExportCsvOptions {
  /** The user's own session; released by `onDone` when the export ends (finished, failed or cancelled). */
  readonly session: QueryExecutor;
  readonly sql: string;
  /** Statement timeout (per fetch) and allowed functions: the pipeline's. No row cap: the export is the full result. */
  readonly settings: Pick<Settings, "statementTimeoutMilliseconds" | "allowedFunctions">;
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

  const work = runReadOnly(
    {
      session: options.session,
      transactionStatus: "idle",
      statementTimeoutMilliseconds: options.settings.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    async (query) => {
      const sql = await validatedSql(query, options.sql, options.settings.allowedFunctions);
      await query(`DECLARE nlq_export NO SCROLL CURSOR FOR\n${sql}`);
      for (;;) {
        const batch = await query(`FETCH FORWARD ${fetchSize} FROM nlq_export`);
        if (!started) {
          started = true;
          signalReady?.();
          await writer.write(encoder.encode(csvLine(batch.fields.map((field) => field.name))));
        }
        if (batch.rows.length === 0) break;
        let text = "";
        for (const row of batch.rows) text += csvLine(row);
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
