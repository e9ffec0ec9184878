import { DatabaseError, NlqError, textPrefix } from "@nlq/engine";
import type { WireNotice } from "../protocol/backend-messages";
import type { ProxyLogger } from "../server/proxy-logger";

/** Message sent for any error that is not an `NlqError`; its real message goes to the proxy log only. */
export const INTERNAL_ERROR_MESSAGE = "internal error in nlq (see proxy log)";

/** Most characters of an error's message, detail or hint sent to the client (the rest is cut with `…`). */
export const WIRE_ERROR_TEXT_LIMIT = 1_000;

/**
 * The ErrorResponse fields for an error raised while answering a question. Only `NlqError`s (which
 * carry a SQLSTATE and a message meant for users) reach the client; anything else is logged and
 * replaced by a generic `XX000`, so internal messages never leak. Message, detail and hint are cut at
 * `WIRE_ERROR_TEXT_LIMIT` characters, so no error can echo a long question (or anything else) back whole.
 */
export function toWireError(error: unknown, logger: ProxyLogger): WireNotice {
  if (NlqError.isInstance(error)) {
    const wire: { severity: string; code: string; message: string; detail?: string; hint?: string } = {
      severity: "ERROR",
      code: error.code,
      message: textPrefix(error.message, WIRE_ERROR_TEXT_LIMIT),
    };
    if (DatabaseError.isInstance(error)) {
      if (error.detail !== undefined) wire.detail = textPrefix(error.detail, WIRE_ERROR_TEXT_LIMIT);
      if (error.hint !== undefined) wire.hint = textPrefix(error.hint, WIRE_ERROR_TEXT_LIMIT);
    }
    return wire;
  }
  logger.error("unexpected error while answering a question", { error });
  return { severity: "ERROR", code: "XX000", message: INTERNAL_ERROR_MESSAGE };
}
