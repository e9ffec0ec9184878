import { AuthenticationFailedError } from "./authentication-failed-error";
import { hmac, type ScramVerifier, sameBytes, scramNonce, sha256, xor } from "./scram-verifier";

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802/7677), checked against a stored verifier. With
 * `channelBinding` (the proxy's `tls-server-end-point` data on a TLS connection) `SCRAM-SHA-256-PLUS` is offered: a
 * client choosing it must bind to exactly that data; one choosing plain SCRAM-SHA-256 must send gs2 flag `n` (`y`, "I
 * could bind but you cannot", is a downgrade and refused). Without it, `n` and `y` are accepted. On success it yields the client's
 * ClientKey, recovered as ClientProof XOR ClientSignature, which lets the proxy log in upstream as the same role.
 * Every refusal throws `AuthenticationFailedError` (28P01).
 */
export class ScramServerExchange {
  readonly #user: string;
  readonly #verifier: ScramVerifier;
  readonly #channelBinding: Buffer | undefined;
  /** What `c=` must carry: the gs2 header, plus the binding data for `-PLUS`. */
  #expectedBinding: Buffer | undefined;
  #gs2Header: string | undefined;
  #clientFirstBare: string | undefined;
  #serverFirst: string | undefined;
  #nonce: string | undefined;

  constructor(user: string, verifier: ScramVerifier, channelBinding?: Buffer) {
    this.#user = user;
    this.#verifier = verifier;
    this.#channelBinding = channelBinding;
  }

  /** The SASL mechanisms to offer, best first. */
  get mechanisms(): readonly string[] {
    return this.#channelBinding === undefined ? [SCRAM_SHA_256] : [SCRAM_SHA_256_PLUS, SCRAM_SHA_256];
  }

  /** Takes the mechanism the client chose and its client-first-message; returns the server-first-message. */
  start(clientFirst: string, mechanism = SCRAM_SHA_256): string {
    const plus = mechanism === SCRAM_SHA_256_PLUS && this.#channelBinding !== undefined;
    if (!plus && mechanism !== SCRAM_SHA_256) throw this.#failed();
    const match = /^(n|y|p=tls-server-end-point),,(.*)$/s.exec(clientFirst);
    if (match === null) throw this.#failed();
    const flag = match[1]!;
    if (plus ? flag !== "p=tls-server-end-point" : flag === "p=tls-server-end-point") throw this.#failed();
    if (flag === "y" && this.#channelBinding !== undefined) throw this.#failed();
    this.#gs2Header = `${flag},,`;
    const header = Buffer.from(this.#gs2Header, "utf8");
    this.#expectedBinding = plus ? Buffer.concat([header, this.#channelBinding!]) : header;
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
    if (binding === undefined || !sameBytes(Buffer.from(binding, "base64"), this.#expectedBinding!)) {
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

export const SCRAM_SHA_256 = "SCRAM-SHA-256";
export const SCRAM_SHA_256_PLUS = "SCRAM-SHA-256-PLUS";

/** The value of `name=` among a SCRAM message's comma-separated attributes. */
export function attribute(message: string, name: string): string | undefined {
  for (const part of message.split(",")) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}
