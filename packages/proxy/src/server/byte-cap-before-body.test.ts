import { once } from "node:events";
import type { Socket } from "node:net";
import type { Answer, AnswerQuestionOptions } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { encodeErrorResponse, encodeReadyForQuery, encodeRowDescription } from "../protocol/backend-messages";
import { RawClient } from "./proxy.test-helpers";
import { startStubUpstream, startTestProxyBefore } from "./stub-upstream.test-helpers";

const BYTE_CAP = 1024 * 1024;
/** The DataRow the stub declares: 64 MiB, far past the cap. */
const DECLARED_ROW_LENGTH = 64 * 1024 * 1024;
/** What the stub sends of it before it waits for the proxy's CancelRequest. */
const SENT_BEFORE_CANCEL = 4096;

/**
 * A stub PostgreSQL server: logs anyone in, and answers the first extended-protocol statement with a RowDescription
 * and a DataRow whose header declares `DECLARED_ROW_LENGTH` bytes, of which it sends only `SENT_BEFORE_CANCEL` until a
 * CancelRequest arrives; then it sends the rest of the row, ErrorResponse 57014 and ReadyForQuery, as PostgreSQL would.
 */
async function startCancellableRowUpstream() {
  let cancelled: () => void = () => {};
  const cancelArrived = new Promise<void>((resolve) => (cancelled = resolve));
  const answered = new WeakSet<Socket>();
  const stub = await startStubUpstream({
    onCancelRequest: () => cancelled(),
    onChunk: (chunk, socket) => {
      if (answered.has(socket) || chunk[0] !== 0x50) return;
      answered.add(socket);
      const header = Buffer.alloc(5 + 2 + 4);
      header[0] = 0x44;
      header.writeInt32BE(DECLARED_ROW_LENGTH, 1);
      header.writeInt16BE(1, 5);
      header.writeInt32BE(DECLARED_ROW_LENGTH - 4 - 2 - 4, 7);
      socket.write(
        Buffer.concat([
          Buffer.from([0x31, 0, 0, 0, 4, 0x32, 0, 0, 0, 4]),
          encodeRowDescription([
            { name: "big", tableId: 0, columnId: 0, dataTypeId: 25, dataTypeSize: -1, dataTypeModifier: -1 },
          ]),
          header,
          Buffer.alloc(SENT_BEFORE_CANCEL - header.length, 0x78),
        ]),
      );
      void cancelArrived.then(async () => {
        let left = DECLARED_ROW_LENGTH + 1 - SENT_BEFORE_CANCEL;
        const piece = Buffer.alloc(1024 * 1024, 0x78);
        while (left > 0) {
          const size = Math.min(left, piece.length);
          if (!socket.write(piece.subarray(0, size))) await once(socket, "drain");
          left -= size;
        }
        socket.write(
          Buffer.concat([
            encodeErrorResponse({
              severity: "ERROR",
              code: "57014",
              message: "canceling statement due to user request",
            }),
            encodeReadyForQuery("I"),
          ]),
        );
      });
    },
  });
  return { ...stub, cancelArrived };
}

/** Runs the question's statement with the byte cap, as the pipeline does (`NLQ_RESULT_BYTE_LIMIT`). */
async function answerWithByteCap(options: AnswerQuestionOptions): Promise<Answer> {
  const sql = "select big";
  const result = await options.session.query({ sql, resultByteLimit: BYTE_CAP });
  return {
    question: options.question,
    sql,
    result,
    truncated: result.cutByBytes === true,
    selection: singleCandidateSelection,
    model: { id: "test:fake", scripted: false },
    candidates: [{ generator: "test", sample: 0, sql, revisions: 0, ok: true, rows: result.rows.length }],
    calls: [],
    elapsedMilliseconds: 1,
  };
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("the byte cap on an answer's rows", () => {
  it.each([false, true])(
    "refuses a DataRow declaring more than the cap at its header, before its body arrives (native relay %s)",
    async (relayOn) => {
      const stub = await startCancellableRowUpstream();
      const proxy = await startTestProxyBefore(stub, answerWithByteCap, { nativeRelay: relayOn });
      closers.push(() => proxy.close(), stub.close);
      const client = new RawClient(proxy.address.port);
      await client.startup("byte-cap");
      client.socket.write(serialize.query("/* nl: big value */"));
      // The proxy cancels the statement although it holds only 4 KiB of the 64 MiB row (it never waits for the rest).
      const cancelled = await Promise.race([
        stub.cancelArrived.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      expect(cancelled).toBe(true);
      await client.waitFor((messages) => messages.filter((m) => m.name === "readyForQuery").length === 2, "answer");
      expect(client.messages.some((message) => message.name === "dataRow")).toBe(false);
      client.socket.destroy();
    },
    30_000,
  );
});
