/**
 * Readers for extended-protocol frontend messages (Bind, Describe, Execute, Close) and encoders for
 * the backend replies the proxy sends itself when it answers a question asked through Parse.
 */

import { readCString } from "./read-c-string";

export interface BindMessage {
  readonly portal: string;
  readonly statementName: string;
  readonly parameterCount: number;
  /** Result-column format codes (0 text, 1 binary); empty means all text. */
  readonly resultFormats: readonly number[];
}

/** Reads a whole Bind (`B`) message. */
export function readBind(message: Buffer): BindMessage {
  const portal = readCString(message, 5);
  const statement = readCString(message, portal.end);
  let offset = statement.end;
  const parameterFormatCount = message.readInt16BE(offset);
  offset += 2 + 2 * parameterFormatCount;
  const parameterCount = message.readInt16BE(offset);
  offset += 2;
  for (let parameter = 0; parameter < parameterCount; parameter++) {
    const length = message.readInt32BE(offset);
    offset += 4 + Math.max(length, 0);
  }
  const resultFormatCount = message.readInt16BE(offset);
  offset += 2;
  const resultFormats: number[] = [];
  for (let format = 0; format < resultFormatCount; format++)
    resultFormats.push(message.readInt16BE(offset + 2 * format));
  return { portal: portal.text, statementName: statement.text, parameterCount, resultFormats };
}

/** Reads a whole Describe (`D`) or Close (`C`) message: `S` statement or `P` portal, and its name. */
export function readDescribeOrClose(message: Buffer): { target: "S" | "P"; name: string } {
  return { target: String.fromCharCode(message[5]!) as "S" | "P", name: readCString(message, 6).text };
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
