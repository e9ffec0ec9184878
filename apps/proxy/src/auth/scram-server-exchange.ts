import { AuthenticationFailedError } from "./authentication-failed-error";
import { hmac, type ScramVerifier, sameBytes, scramNonce, sha256, xor } from "./scram-verifier";

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802/7677, without channel binding: `-PLUS` is not offered, so
 * a client may send gs2 flag `n` or `y`), checked against a stored verifier. On success it yields the client's
 * ClientKey, recovered as ClientProof XOR ClientSignature, which lets the proxy log in upstream as the same role.
 * Every refusal throws `AuthenticationFailedError` (28P01).
 */
export class ScramServerExchange {
  readonly #user: string;
  readonly #verifier: ScramVerifier;
  #gs2Header: string | undefined;
  #clientFirstBare: string | undefined;
  #serverFirst: string | undefined;
  #nonce: string | undefined;

  constructor(user: string, verifier: ScramVerifier) {
    this.#user = user;
    this.#verifier = verifier;
  }

  /** Takes the client-first-message; returns the server-first-message. */
  start(clientFirst: string): string {
    const match = /^([ny]),,(.*)$/s.exec(clientFirst);
    if (match === null) throw this.#failed();
    this.#gs2Header = `${match[1]},,`;
    const bare = match[2]!;
    const clientNonce = attribute(bare, "r");
    if (clientNonce === undefined || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce)) throw this.#failed();
    this.#clientFirstBare = bare;
    this.#nonce = clientNonce + scramNonce();
    this.#serverFirst = `r=${this.#nonce},s=${this.#verifier.salt.toString("base64")},i=${this.#verifier.iterations}`;
    return this.#serverFirst;
  }

  /** Takes the client-final-message; returns the server-final-message and the recovered ClientKey. */
  finish(clientFinal: string): { serverFinal: string; clientKey: Buffer } {
    const proofAt = clientFinal.lastIndexOf(",p=");
    if (this.#serverFirst === undefined || proofAt < 0) throw this.#failed();
    const withoutProof = clientFinal.slice(0, proofAt);
    const proof = Buffer.from(clientFinal.slice(proofAt + 3), "base64");
    const binding = attribute(withoutProof, "c");
    if (binding === undefined || Buffer.from(binding, "base64").toString("utf8") !== this.#gs2Header) {
      throw this.#failed();
    }
    if (attribute(withoutProof, "r") !== this.#nonce) throw this.#failed();
    const authMessage = `${this.#clientFirstBare},${this.#serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.#verifier.storedKey, authMessage);
    if (proof.length !== clientSignature.length) throw this.#failed();
    const clientKey = xor(proof, clientSignature);
    if (!sameBytes(sha256(clientKey), this.#verifier.storedKey)) throw this.#failed();
    const serverSignature = hmac(this.#verifier.serverKey, authMessage);
    return { serverFinal: `v=${serverSignature.toString("base64")}`, clientKey };
  }

  #failed(): AuthenticationFailedError {
    return new AuthenticationFailedError(this.#user);
  }
}

/** The value of `name=` among a SCRAM message's comma-separated attributes. */
export function attribute(message: string, name: string): string | undefined {
  for (const part of message.split(",")) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}
