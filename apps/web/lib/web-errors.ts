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

/**
 * PostgreSQL refused the sign-in (wrong password, no such role, or pg_hba.conf). The message does not say which, so it
 * tells nobody whether a role exists. SQLSTATE 28P01 or 28000, as PostgreSQL reported it.
 */
export class SignInRejectedError extends NlqError {
  constructor(code: string, options: { cause?: unknown } = {}) {
    super("PostgreSQL did not accept this user name and password.", { code, ...options });
  }
}

/** The request needs a signed-in user and has none (no session cookie, or the session expired). SQLSTATE 28000. */
export class SignInRequiredError extends NlqError {
  constructor() {
    super("Sign in with your PostgreSQL user name and password.", { code: "28000" });
  }
}

/** A state-changing request came from another site (CSRF). SQLSTATE 42501 (insufficient_privilege). */
export class CrossOriginRequestError extends NlqError {
  constructor() {
    super("The request did not come from this site.", { code: "42501" });
  }
}
