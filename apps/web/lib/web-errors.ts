import { NlqError } from "@nlq/engine";

const databaseConnectionErrorMarker = Symbol.for("nlq.error.DatabaseConnectionError");

/** The web app cannot reach its database (`DATABASE_URL`). SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection). */
export class DatabaseConnectionError extends NlqError {
  readonly [databaseConnectionErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is DatabaseConnectionError {
    return NlqError.hasMarker(error, databaseConnectionErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "08001", ...options });
  }
}

const chatRequestErrorMarker = Symbol.for("nlq.error.ChatRequestError");

/** The chat request is malformed (no question in the last user message). SQLSTATE 42601. */
export class ChatRequestError extends NlqError {
  readonly [chatRequestErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ChatRequestError {
    return NlqError.hasMarker(error, chatRequestErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "42601" });
  }
}

const signInRejectedErrorMarker = Symbol.for("nlq.error.SignInRejectedError");

/**
 * PostgreSQL refused the sign-in (wrong password, no such role, or pg_hba.conf). The message does not say which, so it
 * tells nobody whether a role exists. SQLSTATE 28P01 or 28000, as PostgreSQL reported it.
 */
export class SignInRejectedError extends NlqError {
  readonly [signInRejectedErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is SignInRejectedError {
    return NlqError.hasMarker(error, signInRejectedErrorMarker);
  }

  constructor(code: string, options: { cause?: unknown } = {}) {
    super("PostgreSQL did not accept this user name and password.", { code, ...options });
  }
}

const signInRequiredErrorMarker = Symbol.for("nlq.error.SignInRequiredError");

/** The request needs a signed-in user and has none (no session cookie, or the session expired). SQLSTATE 28000. */
export class SignInRequiredError extends NlqError {
  readonly [signInRequiredErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is SignInRequiredError {
    return NlqError.hasMarker(error, signInRequiredErrorMarker);
  }

  constructor() {
    super("Sign in with your PostgreSQL user name and password.", { code: "28000" });
  }
}

const crossOriginRequestErrorMarker = Symbol.for("nlq.error.CrossOriginRequestError");

/** A state-changing request came from another site (CSRF). SQLSTATE 42501 (insufficient_privilege). */
export class CrossOriginRequestError extends NlqError {
  readonly [crossOriginRequestErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is CrossOriginRequestError {
    return NlqError.hasMarker(error, crossOriginRequestErrorMarker);
  }

  constructor() {
    super("The request did not come from this site.", { code: "42501" });
  }
}
