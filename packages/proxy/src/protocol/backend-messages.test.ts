import { Parser } from "pg-protocol/dist/parser";
import { describe, expect, it } from "vitest";
import {
  encodeCommandComplete,
  encodeDataRow,
  encodeEmptyQueryResponse,
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  encodeRowDescription,
} from "./backend-messages";

function parseOne(bytes: Buffer): Record<string, unknown> {
  const messages: unknown[] = [];
  new Parser().parse(bytes, (message) => messages.push(message));
  expect(messages).toHaveLength(1);
  return messages[0] as Record<string, unknown>;
}

describe("backend message encoder", () => {
  it("encodes ReadyForQuery", () => {
    expect(encodeReadyForQuery("T")).toEqual(Buffer.from([0x5a, 0, 0, 0, 5, 0x54]));
    expect(parseOne(encodeReadyForQuery("E"))).toMatchObject({ name: "readyForQuery", status: "E" });
  });

  it("encodes CommandComplete", () => {
    expect(encodeCommandComplete("SELECT 2")).toEqual(Buffer.from("C\0\0\0\x0dSELECT 2\0", "latin1"));
    expect(parseOne(encodeCommandComplete("SELECT 2"))).toMatchObject({ name: "commandComplete", text: "SELECT 2" });
  });

  it("encodes EmptyQueryResponse", () => {
    expect(encodeEmptyQueryResponse()).toEqual(Buffer.from([0x49, 0, 0, 0, 4]));
  });

  it("encodes RowDescription", () => {
    const bytes = encodeRowDescription([
      { name: "id", tableId: 16384, columnId: 1, dataTypeId: 23, dataTypeSize: 4, dataTypeModifier: -1 },
    ]);
    expect(bytes).toEqual(
      Buffer.from([
        0x54, 0, 0, 0, 27, 0, 1, 0x69, 0x64, 0, 0, 0, 0x40, 0, 0, 1, 0, 0, 0, 23, 0, 4, 0xff, 0xff, 0xff, 0xff, 0, 0,
      ]),
    );
    expect(parseOne(bytes)).toMatchObject({
      name: "rowDescription",
      fields: [{ name: "id", tableID: 16384, columnID: 1, dataTypeID: 23, dataTypeSize: 4, dataTypeModifier: -1 }],
    });
  });

  it("encodes DataRow with NULL and multibyte text", () => {
    const bytes = encodeDataRow(["é", null, ""]);
    expect(bytes).toEqual(
      Buffer.from([0x44, 0, 0, 0, 20, 0, 3, 0, 0, 0, 2, 0xc3, 0xa9, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
    );
    expect(parseOne(bytes)).toMatchObject({ name: "dataRow", fields: ["é", null, ""] });
  });

  it("encodes ErrorResponse and NoticeResponse fields", () => {
    const error = encodeErrorResponse({ severity: "ERROR", code: "42601", message: "bad", hint: "fix it" });
    expect(error).toEqual(Buffer.from("E\0\0\0\x27SERROR\0VERROR\0C42601\0Mbad\0Hfix it\0\0", "latin1"));
    expect(parseOne(error)).toMatchObject({
      name: "error",
      severity: "ERROR",
      code: "42601",
      message: "bad",
      hint: "fix it",
    });
    const notice = encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: "nlq: SELECT 1", detail: "d" });
    expect(parseOne(notice)).toMatchObject({
      name: "notice",
      severity: "NOTICE",
      message: "nlq: SELECT 1",
      detail: "d",
    });
  });
});
