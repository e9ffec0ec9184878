import type { ReadyStatus } from "./backend-messages";
import { ProtocolViolationError } from "./protocol-error";

/**
 * The transaction status of an upstream ReadyForQuery (`Z`, whole message, header included). A ReadyForQuery without
 * its status byte is a protocol violation, as libpq and the native relay take it (not a status of `\0`).
 */
export function readReadyStatus(message: Buffer): ReadyStatus {
  if (message.length < 6) throw new ProtocolViolationError("ReadyForQuery without its transaction status");
  return String.fromCharCode(message[5]!) as ReadyStatus;
}
