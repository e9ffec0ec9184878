import { MessageReader } from "./message-reader";

/**
 * A NUL-terminated UTF-8 string at `offset`, and the offset just past its NUL. Throws
 * `ProtocolViolationError` when the string has no terminator.
 */
export function readCString(buffer: Buffer, offset: number): { text: string; end: number } {
  const reader = new MessageReader(buffer, "frontend", offset);
  const text = reader.cString();
  return { text, end: reader.offset };
}
