import { serialize } from "pg-protocol";
import { UpstreamLoginError } from "../auth/authentication-failed-error";
import { AuthenticationCode, SCRAM_SHA_256 } from "../auth/client-authentication";
import type { ScramUpstreamLogin } from "../auth/scram-upstream-login";

/** What to do with an upstream authentication request during the proxy's own SCRAM login upstream. */
export type UpstreamAuthenticationStep =
  /** Answered here: not forwarded to the client. */
  | "answered"
  /** AuthenticationOk: the login is over; forward it. */
  | "authenticated";

/**
 * One upstream authentication request while the proxy logs in with the client's recovered keys (`NLQ_AUTH_QUERY_URL`):
 * SASL messages are answered with `write`; AuthenticationOk ends the login. Throws `UpstreamLoginError` for a method
 * the login cannot use.
 */
export function answerUpstreamAuthentication(
  message: Buffer,
  login: ScramUpstreamLogin,
  write: (bytes: Buffer) => void,
): UpstreamAuthenticationStep {
  const code = message.readInt32BE(5);
  const payload = message.toString("utf8", 9);
  switch (code) {
    case AuthenticationCode.ok:
      return "authenticated";
    case AuthenticationCode.sasl:
      if (!payload.split("\0").includes(SCRAM_SHA_256)) {
        throw new UpstreamLoginError("the upstream server does not offer SCRAM-SHA-256 for this role");
      }
      write(serialize.sendSASLInitialResponseMessage(SCRAM_SHA_256, login.clientFirst));
      return "answered";
    case AuthenticationCode.saslContinue:
      write(serialize.sendSCRAMClientFinalMessage(login.respond(payload)));
      return "answered";
    case AuthenticationCode.saslFinal:
      login.verify(payload);
      return "answered";
    default:
      throw new UpstreamLoginError(
        `the upstream server asks for authentication method ${code}; with NLQ_AUTH_QUERY_URL the role must use scram-sha-256 (or trust)`,
      );
  }
}
