import { CancelledError, DatabaseError } from "@nlq/engine";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import {
  encodeCommandComplete,
  encodeDataRow,
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  encodeRowDescription,
} from "../protocol/backend-messages";
import { UpstreamConnectionError, UpstreamQueryExecutor } from "./upstream-query-executor";

function setup() {
  const written: Buffer[] = [];
  let cancels = 0;
  const executor = new UpstreamQueryExecutor({
    write: (bytes) => written.push(bytes),
    requestCancel: () => {
      cancels++;
    },
  });
  return { executor, written, cancels: () => cancels };
}

/** A backend message without a body (ParseComplete `1`, BindComplete `2`, NoData `n`). */
function emptyMessage(type: string): Buffer {
  return Buffer.from([type.charCodeAt(0), 0, 0, 0, 4]);
}

const field = { name: "n", tableId: 0, columnId: 0, dataTypeId: 23, dataTypeSize: 4, dataTypeModifier: -1 };

describe("UpstreamQueryExecutor", () => {
  it("sends one extended-protocol statement and collects text rows until ReadyForQuery, swallowing notices", async () => {
    const { executor, written } = setup();
    const result = executor.query({ sql: "select n" });
    expect(written).toEqual([
      Buffer.concat([
        serialize.parse({ text: "select n" }),
        serialize.bind({}),
        serialize.describe({ type: "P", name: "" }),
        serialize.execute({ portal: "", rows: 0 }),
        serialize.sync(),
      ]),
    ]);
    expect(executor.busy).toBe(true);
    for (const message of [
      emptyMessage("1"), // ParseComplete
      emptyMessage("2"), // BindComplete
      encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: "ignored" }),
      encodeRowDescription([field]),
      encodeDataRow(["1"]),
      encodeDataRow([null]),
      encodeCommandComplete("SELECT 2"),
      encodeReadyForQuery("I"),
    ]) {
      executor.receive(message);
    }
    await expect(result).resolves.toEqual({
      fields: [{ name: "n", tableId: 0, columnId: 0, dataTypeId: 23, dataTypeSize: 4, dataTypeModifier: -1 }],
      rows: [["1"], [null]],
      command: "SELECT 2",
    });
    expect(executor.busy).toBe(false);
  });

  it("rejects with DatabaseError carrying SQLSTATE, detail and hint", async () => {
    const { executor } = setup();
    const result = executor.query({ sql: "select 1/0" });
    executor.receive(
      encodeErrorResponse({ severity: "ERROR", code: "22012", message: "division by zero", detail: "d", hint: "h" }),
    );
    executor.receive(encodeReadyForQuery("I"));
    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({
      code: "22012",
      message: "division by zero",
      detail: "d",
      hint: "h",
      sql: "select 1/0",
    });
  });

  it("cancels upstream on abort and rejects with CancelledError once the server is ready again", async () => {
    const { executor, cancels } = setup();
    const abort = new AbortController();
    const result = executor.query({ sql: "select pg_sleep(10)", abortSignal: abort.signal });
    abort.abort();
    expect(cancels()).toBe(1);
    executor.receive(encodeErrorResponse({ severity: "ERROR", code: "57014", message: "canceling statement" }));
    executor.receive(encodeReadyForQuery("I"));
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    // a later abort of the same signal does not cancel anything else
    await expect(executor.query({ sql: "select 1", abortSignal: abort.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(cancels()).toBe(1);
  });

  it("refuses COPY FROM STDIN with CopyFail", async () => {
    const { executor, written } = setup();
    const result = executor.query({ sql: "copy t from stdin" });
    executor.receive(Buffer.from([0x47, 0, 0, 0, 7, 0, 0, 0]));
    expect(written.at(-1)).toEqual(serialize.copyFail("nlq does not run COPY FROM STDIN"));
    executor.receive(encodeErrorResponse({ severity: "ERROR", code: "57014", message: "COPY from stdin failed" }));
    executor.receive(encodeReadyForQuery("I"));
    await expect(result).rejects.toMatchObject({ code: "57014" });
  });

  it("runs one statement at a time and fails everything once the upstream is gone", async () => {
    const { executor } = setup();
    const first = executor.query({ sql: "select 1" });
    await expect(executor.query({ sql: "select 2" })).rejects.toThrow(/one statement at a time/);
    executor.close();
    await expect(first).rejects.toBeInstanceOf(UpstreamConnectionError);
    await expect(executor.query({ sql: "select 3" })).rejects.toMatchObject({ code: "08006" });
  });

  it("keeps rows within the byte limit, cancels once, and resolves with what fit after the cancel error", async () => {
    const { executor, cancels } = setup();
    const row = encodeDataRow(["x".repeat(100)]);
    const result = executor.query({ sql: "select big", resultByteLimit: row.length * 2 + 10 });
    executor.receive(encodeRowDescription([field]));
    for (let index = 0; index < 5; index++) executor.receive(encodeDataRow([`${index}${"x".repeat(99)}`]));
    expect(cancels()).toBe(1);
    executor.receive(encodeErrorResponse({ severity: "ERROR", code: "57014", message: "canceling statement" }));
    executor.receive(encodeReadyForQuery("T"));
    const capped = await result;
    expect(capped.cutByBytes).toBe(true);
    expect(capped.rows.map((values) => values[0]?.slice(0, 1))).toEqual(["0", "1"]);
  });

  it("refuses a DataRow at its header once its declared length exceeds what is left of the byte limit", async () => {
    const { executor, cancels } = setup();
    const row = encodeDataRow(["x".repeat(100)]);
    const declared = row.length - 1;
    const result = executor.query({ sql: "select big", resultByteLimit: declared * 2 + 10 });
    executor.receive(encodeRowDescription([field]));
    // Two rows fit: admitted at their header, kept (and counted once) when they arrive.
    for (let index = 0; index < 2; index++) {
      expect(executor.refusesRow(declared)).toBe(false);
      executor.receive(row);
    }
    expect(cancels()).toBe(0);
    // A row declaring 500 MB is refused before any of its body is read, and the statement is cancelled.
    expect(executor.refusesRow(500_000_000)).toBe(true);
    expect(cancels()).toBe(1);
    expect(executor.refusesRow(declared)).toBe(true);
    executor.receive(encodeErrorResponse({ severity: "ERROR", code: "57014", message: "canceling statement" }));
    executor.receive(encodeReadyForQuery("I"));
    const capped = await result;
    expect(capped).toMatchObject({ cutByBytes: true });
    expect(capped.rows).toHaveLength(2);
    expect(cancels()).toBe(1);
  });

  it("reports a cut by bytes even when the statement completed before the cancel landed", async () => {
    const { executor, cancels } = setup();
    const result = executor.query({ sql: "select big", resultByteLimit: 1 });
    executor.receive(encodeRowDescription([field]));
    executor.receive(encodeDataRow(["1"]));
    executor.receive(encodeCommandComplete("SELECT 1"));
    executor.receive(encodeReadyForQuery("T"));
    await expect(result).resolves.toMatchObject({ rows: [], cutByBytes: true });
    expect(cancels()).toBe(1);
  });
});
