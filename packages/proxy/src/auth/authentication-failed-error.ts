import { NlqError } from "@nlq/engine";

const authenticationFailedErrorMarker = Symbol.for("nlq.error.AuthenticationFailedError");

/**
 * The proxy refused a login it authenticates itself (`NLQ_AUTH_QUERY_URL`): wrong password, unknown role, or a role
 * without a SCRAM-SHA-256 verifier. SQLSTATE 28P01 (invalid_password) with PostgreSQL's own wording, which names
 * none of the reasons (so the proxy does not tell which roles exist).
 */
export class AuthenticationFailedError extends NlqError {
  readonly [authenticationFailedErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is AuthenticationFailedError {
    return NlqError.hasMarker(error, authenticationFailedErrorMarker);
  }

  constructor(user: string) {
    super(`password authentication failed for user "${user.slice(0, 64)}"`, { code: "28P01" });
  }
}

const upstreamLoginErrorMarker = Symbol.for("nlq.error.UpstreamLoginError");

/** The proxy could not log in upstream with the client's SCRAM keys. SQLSTATE 28000 (invalid_authorization_specification). */
export class UpstreamLoginError extends NlqError {
  readonly [upstreamLoginErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UpstreamLoginError {
    return NlqError.hasMarker(error, upstreamLoginErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "28000" });
  }
}
