import { NlqError } from "@nlq/engine";

/**
 * The proxy refused a login it authenticates itself (`NLQ_AUTH_QUERY_URL`): wrong password, unknown role, or a role
 * without a SCRAM-SHA-256 verifier. SQLSTATE 28P01 (invalid_password) with PostgreSQL's own wording, which names
 * none of the reasons (so the proxy does not tell which roles exist).
 */
export class AuthenticationFailedError extends NlqError {
  constructor(user: string) {
    super(`password authentication failed for user "${user.slice(0, 64)}"`, { code: "28P01" });
  }
}

/** The proxy could not log in upstream with the client's SCRAM keys. SQLSTATE 28000 (invalid_authorization_specification). */
export class UpstreamLoginError extends NlqError {
  constructor(message: string) {
    super(message, { code: "28000" });
  }
}
