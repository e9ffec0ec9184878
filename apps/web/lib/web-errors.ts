import { NlqError } from "@nlq/engine";

/** The web app cannot reach its database (`DATABASE_URL`). SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection). */
export class DatabaseConnectionError extends NlqError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "08001", ...options });
  }
}

/** The chat request is malformed (no question in the last user message). SQLSTATE 42601. */
export class ChatRequestError extends NlqError {
  constructor(message: string) {
    super(message, { code: "42601" });
  }
}
