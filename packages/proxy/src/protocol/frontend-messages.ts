/**
 * Readers for the few frontend (client → server) messages the proxy looks into. Each takes one whole
 * message as the framer hands it back (header included).
 */

import { serialize } from "pg-protocol";
import { MessageReader } from "./message-reader";

/** Protocol codes in the startup-phase packets (the int32 after the length). */
export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;

export type StartupPacket =
  | { readonly kind: "ssl-request" }
  | { readonly kind: "gssenc-request" }
  | { readonly kind: "cancel-request"; readonly processId: number; readonly secretKey: number }
  | { readonly kind: "startup-message"; readonly protocolVersion: number };

/** Reads an untyped startup-phase packet; throws `ProtocolViolationError` when it is too short. */
export function readStartupPacket(packet: Buffer): StartupPacket {
  const reader = new MessageReader(packet, "startup", 4);
  const code = reader.int32();
  if (code === SSL_REQUEST_CODE) return { kind: "ssl-request" };
  if (code === GSSENC_REQUEST_CODE) return { kind: "gssenc-request" };
  if (code === CANCEL_REQUEST_CODE)
    return { kind: "cancel-request", processId: reader.int32(), secretKey: reader.int32() };
  return { kind: "startup-message", protocolVersion: code };
}

/** Builds a CancelRequest packet (16 bytes; pg-protocol's client-side serializer). */
export function encodeCancelRequest(processId: number, secretKey: number): Buffer {
  return serialize.cancel(processId, secretKey);
}

/** The SQL text of a simple Query (`Q`) message; throws `ProtocolViolationError` when it is malformed. */
export function readQueryText(message: Buffer): string {
  return new MessageReader(message, "Query").cString();
}

/** Statement name and SQL text of a Parse (`P`) message; throws `ProtocolViolationError` when it is malformed. */
export function readParse(message: Buffer): { statementName: string; text: string } {
  const reader = new MessageReader(message, "Parse");
  const statementName = reader.cString();
  return { statementName, text: reader.cString() };
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
  authenticationRequest: 0x52, // R
  dataRow: 0x44, // D (backend; same byte as frontend Describe)
  copyInResponse: 0x47, // G
  copyBothResponse: 0x57, // W
} as const;
