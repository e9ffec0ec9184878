import { UpstreamLoginError } from "./authentication-failed-error";
import { attribute } from "./scram-server-exchange";
import { hmac, type ScramVerifier, sameBytes, scramNonce, sha256, xor } from "./scram-verifier";

/**
 * The client side of SCRAM-SHA-256 toward the upstream, made from a ClientKey instead of a password (PgBouncer's
 * technique): ClientProof = ClientKey XOR HMAC(SHA-256(ClientKey), AuthMessage). The server's signature is checked
 * with the verifier's ServerKey. Gs2 flag `n`: the proxy does not bind to the upstream's TLS channel.
 */
export class ScramUpstreamLogin {
  readonly #clientKey: Buffer;
  readonly #verifier: ScramVerifier;
  readonly #clientFirstBare = `n=,r=${scramNonce()}`;
  #authMessage: string | undefined;

  constructor(clientKey: Buffer, verifier: ScramVerifier) {
    this.#clientKey = clientKey;
    this.#verifier = verifier;
  }

  /** The client-first-message. */
  get clientFirst(): string {
    return `n,,${this.#clientFirstBare}`;
  }

  /** Takes the server-first-message; returns the client-final-message. */
  respond(serverFirst: string): string {
    const nonce = attribute(serverFirst, "r");
    const ourNonce = this.#clientFirstBare.slice("n=,r=".length);
    if (nonce === undefined || !nonce.startsWith(ourNonce) || nonce.length === ourNonce.length) {
      throw new UpstreamLoginError("the upstream server's SCRAM nonce does not extend the proxy's");
    }
    const withoutProof = `c=biws,r=${nonce}`;
    this.#authMessage = `${this.#clientFirstBare},${serverFirst},${withoutProof}`;
    const clientSignature = hmac(sha256(this.#clientKey), this.#authMessage);
    return `${withoutProof},p=${xor(this.#clientKey, clientSignature).toString("base64")}`;
  }

  /** Checks the server-final-message: the upstream proved it knows the same verifier. */
  verify(serverFinal: string): void {
    const signature = attribute(serverFinal, "v");
    const expected = this.#authMessage === undefined ? undefined : hmac(this.#verifier.serverKey, this.#authMessage);
    if (signature === undefined || expected === undefined || !sameBytes(Buffer.from(signature, "base64"), expected)) {
      throw new UpstreamLoginError("the upstream server's SCRAM signature does not match the role's verifier");
    }
  }
}
