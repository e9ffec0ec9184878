/**
 * Readers for the few frontend (client → server) messages the proxy looks into. Each takes one whole
 * message as the framer hands it back (header included).
 */

import { serialize } from "pg-protocol";
import { readCString } from "./read-c-string";

/** Protocol codes in the startup-phase packets (the int32 after the length). */
export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;

export type StartupPacket =
  | { readonly kind: "ssl-request" }
  | { readonly kind: "gssenc-request" }
  | { readonly kind: "cancel-request"; readonly processId: number; readonly secretKey: number }
  | { readonly kind: "startup-message"; readonly protocolVersion: number };

export function readStartupPacket(packet: Buffer): StartupPacket {
  const code = packet.readInt32BE(4);
  if (code === SSL_REQUEST_CODE) return { kind: "ssl-request" };
  if (code === GSSENC_REQUEST_CODE) return { kind: "gssenc-request" };
  if (code === CANCEL_REQUEST_CODE && packet.length >= 16) {
    return { kind: "cancel-request", processId: packet.readInt32BE(8), secretKey: packet.readInt32BE(12) };
  }
  return { kind: "startup-message", protocolVersion: code };
}

/** Builds a CancelRequest packet (16 bytes; pg-protocol's client-side serializer). */
export function encodeCancelRequest(processId: number, secretKey: number): Buffer {
  return serialize.cancel(processId, secretKey);
}

/** The SQL text of a simple Query (`Q`) message. */
export function readQueryText(message: Buffer): string {
  return readCString(message, 5).text;
}

/** Statement name and SQL text of a Parse (`P`) message. */
export function readParse(message: Buffer): { statementName: string; text: string } {
  const name = readCString(message, 5);
  const text = readCString(message, name.end);
  return { statementName: name.text, text: text.text };
}

/** Message type bytes used by the proxy. */
export const MessageType = {
  query: 0x51, // Q
  parse: 0x50, // P
  sync: 0x53, // S (frontend Sync)
  terminate: 0x58, // X
  functionCall: 0x46, // F
  bind: 0x42, // B
  describe: 0x44, // D
  execute: 0x45, // E (frontend Execute; backend ErrorResponse)
  close: 0x43, // C
  flush: 0x48, // H
  readyForQuery: 0x5a, // Z
  backendKeyData: 0x4b, // K
  errorResponse: 0x45, // E
  noticeResponse: 0x4e, // N
  notificationResponse: 0x41, // A
  parameterStatus: 0x53, // S (backend; same byte as frontend Sync)
} as const;
