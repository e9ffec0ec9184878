/**
 * Encoder for the backend (server → client) messages the proxy itself sends. Hand-written: pg-protocol
 * only serializes client → server messages. Every function returns one whole message, header included.
 */

/** Field of a RowDescription, values in text format. */
export interface RowDescriptionField {
  readonly name: string;
  /** OID of the source table, or 0. */
  readonly tableId: number;
  /** Attribute number in the source table, or 0. */
  readonly columnId: number;
  readonly dataTypeId: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
}

/** ReadyForQuery status byte: idle, in a transaction block, in a failed transaction block. */
export type ReadyStatus = "I" | "T" | "E";

/** Fields of an ErrorResponse or NoticeResponse. */
export interface WireNotice {
  /** `ERROR`, `FATAL`, `NOTICE`, `WARNING`, … (sent both localized `S` and non-localized `V`). */
  readonly severity: string;
  /** SQLSTATE. */
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.allocUnsafe(5);
  header[0] = type.charCodeAt(0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function cString(text: string): Buffer {
  return Buffer.from(`${text}\0`, "utf8");
}

export function encodeRowDescription(fields: readonly RowDescriptionField[], formats: readonly number[] = []): Buffer {
  const parts: Buffer[] = [];
  const count = Buffer.allocUnsafe(2);
  count.writeInt16BE(fields.length, 0);
  parts.push(count);
  fields.forEach((field, index) => {
    parts.push(cString(field.name));
    const fixed = Buffer.allocUnsafe(18);
    fixed.writeInt32BE(field.tableId, 0);
    fixed.writeInt16BE(field.columnId, 4);
    fixed.writeInt32BE(field.dataTypeId, 6);
    fixed.writeInt16BE(field.dataTypeSize, 10);
    fixed.writeInt32BE(field.dataTypeModifier, 12);
    fixed.writeInt16BE(formats[index] ?? 0, 16); // 0 text, 1 binary
    parts.push(fixed);
  });
  return message("T", Buffer.concat(parts));
}

/** One row of values: text (a string, sent as UTF-8) or binary (a Buffer, sent as is); `null` is SQL NULL. */
export function encodeDataRow(values: ReadonlyArray<string | Buffer | null>): Buffer {
  const parts: Buffer[] = [];
  const count = Buffer.allocUnsafe(2);
  count.writeInt16BE(values.length, 0);
  parts.push(count);
  for (const value of values) {
    const length = Buffer.allocUnsafe(4);
    if (value === null) {
      length.writeInt32BE(-1, 0);
      parts.push(length);
    } else {
      const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
      length.writeInt32BE(bytes.length, 0);
      parts.push(length, bytes);
    }
  }
  return message("D", Buffer.concat(parts));
}

/** CommandComplete with its tag, e.g. `SELECT 3`. */
export function encodeCommandComplete(tag: string): Buffer {
  return message("C", cString(tag));
}

export function encodeReadyForQuery(status: ReadyStatus): Buffer {
  return message("Z", Buffer.from(status, "latin1"));
}

export function encodeEmptyQueryResponse(): Buffer {
  return message("I", Buffer.alloc(0));
}

export function encodeErrorResponse(error: WireNotice): Buffer {
  return message("E", noticeFields(error));
}

export function encodeNoticeResponse(notice: WireNotice): Buffer {
  return message("N", noticeFields(notice));
}

function noticeFields(notice: WireNotice): Buffer {
  const parts = [
    Buffer.from("S"),
    cString(notice.severity),
    Buffer.from("V"),
    cString(notice.severity),
    Buffer.from("C"),
    cString(notice.code),
    Buffer.from("M"),
    cString(notice.message),
  ];
  if (notice.detail !== undefined) parts.push(Buffer.from("D"), cString(notice.detail));
  if (notice.hint !== undefined) parts.push(Buffer.from("H"), cString(notice.hint));
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** The single byte `N` that refuses SSLRequest and GSSENCRequest (not a framed message). */
export const REFUSE_ENCRYPTION = Buffer.from("N", "latin1");
