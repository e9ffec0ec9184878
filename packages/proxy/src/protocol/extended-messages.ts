/**
 * Readers for extended-protocol frontend messages (Bind, Describe, Execute, Close) and encoders for
 * the backend replies the proxy sends itself when it answers a question asked through Parse.
 */

import { MessageReader } from "./message-reader";
import { ProtocolViolationError } from "./protocol-error";

export interface BindMessage {
  readonly portal: string;
  readonly statementName: string;
  readonly parameterCount: number;
  /** Result-column format codes (0 text, 1 binary); empty means all text. */
  readonly resultFormats: readonly number[];
}

/** Reads a whole Bind (`B`) message; throws `ProtocolViolationError` when it is malformed. */
export function readBind(message: Buffer): BindMessage {
  const reader = new MessageReader(message, "Bind");
  const portal = reader.cString();
  const statementName = reader.cString();
  const parameterFormatCount = reader.int16();
  if (parameterFormatCount < 0) throw new ProtocolViolationError("invalid Bind message: negative format count");
  reader.skip(2 * parameterFormatCount);
  const parameterCount = reader.int16();
  if (parameterCount < 0) throw new ProtocolViolationError("invalid Bind message: negative parameter count");
  for (let parameter = 0; parameter < parameterCount; parameter++) {
    const length = reader.int32();
    if (length < -1) throw new ProtocolViolationError(`invalid Bind message: parameter length ${length}`);
    reader.skip(Math.max(length, 0));
  }
  const resultFormatCount = reader.int16();
  if (resultFormatCount < 0) throw new ProtocolViolationError("invalid Bind message: negative result format count");
  const resultFormats: number[] = [];
  for (let format = 0; format < resultFormatCount; format++) resultFormats.push(reader.int16());
  return { portal, statementName, parameterCount, resultFormats };
}

/**
 * Reads a whole Describe (`D`) or Close (`C`) message: `S` statement or `P` portal, and its name.
 * Throws `ProtocolViolationError` when it is malformed.
 */
export function readDescribeOrClose(message: Buffer): { target: "S" | "P"; name: string } {
  const reader = new MessageReader(message, "Describe or Close");
  const target = String.fromCharCode(reader.byte());
  if (target !== "S" && target !== "P") {
    throw new ProtocolViolationError(`invalid Describe or Close message: unknown target '${target}'`);
  }
  return { target, name: reader.cString() };
}

function emptyMessage(type: string): Buffer {
  return Buffer.from([type.charCodeAt(0), 0, 0, 0, 4]);
}

export const encodeParseComplete = (): Buffer => emptyMessage("1");
export const encodeBindComplete = (): Buffer => emptyMessage("2");
export const encodeCloseComplete = (): Buffer => emptyMessage("3");

/** ParameterDescription with the given parameter type OIDs. */
export function encodeParameterDescription(typeIds: readonly number[]): Buffer {
  const message = Buffer.allocUnsafe(7 + 4 * typeIds.length);
  message[0] = "t".charCodeAt(0);
  message.writeInt32BE(6 + 4 * typeIds.length, 1);
  message.writeInt16BE(typeIds.length, 5);
  typeIds.forEach((typeId, index) => {
    message.writeUInt32BE(typeId, 7 + 4 * index);
  });
  return message;
}
