import { randomBytes } from "node:crypto";
import { MessageReader } from "../protocol/message-reader";
import { ProtocolViolationError } from "../protocol/protocol-error";
import type { AuthSource } from "./auth-query";
import { SCRAM_SHA_256, ScramServerExchange } from "./scram-server-exchange";
import { mockScramVerifier, type ScramVerifier } from "./scram-verifier";

/** Authentication request codes of the backend `R` message. */
export const AuthenticationCode = { ok: 0, sasl: 10, saslContinue: 11, saslFinal: 12 } as const;

export { SCRAM_SHA_256 };

/** Salt of the mock verifiers for unknown roles: per process, so a role's mock salt is stable while it runs. */
const mockSecret = randomBytes(32);

/** An `R` message: the code and its payload. */
export function encodeAuthentication(code: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const message = Buffer.alloc(9 + payload.length);
  message[0] = 0x52;
  message.writeInt32BE(8 + payload.length, 1);
  message.writeInt32BE(code, 5);
  payload.copy(message, 9);
  return message;
}

/** The client logged in: the keys to log in upstream with. */
export interface AuthenticatedClient {
  readonly clientKey: Buffer;
  readonly verifier: ScramVerifier;
}

/**
 * The proxy's side of a client's SCRAM-SHA-256 login (`NLQ_AUTH_QUERY_URL`): `begin` looks the role up and returns the
 * AuthenticationSASL request; `receive` takes each SASLInitialResponse/SASLResponse (`p`) and returns what to send back,
 * and, after the last one, the recovered keys. An unknown role runs against a mock verifier and fails at the proof, so
 * the answer does not tell whether the role exists. Refusals throw `AuthenticationFailedError` (28P01).
 */
export class ClientAuthentication {
  readonly #user: string;
  readonly #source: AuthSource;
  readonly #channelBinding: Buffer | undefined;
  #verifier: ScramVerifier | undefined;
  #exchange: ScramServerExchange | undefined;
  #started = false;

  /** `channelBinding`: the proxy's `tls-server-end-point` data when the client connection is TLS (offers `-PLUS`). */
  constructor(user: string, source: AuthSource, channelBinding?: Buffer) {
    this.#user = user;
    this.#source = source;
    this.#channelBinding = channelBinding;
  }

  async begin(): Promise<Buffer> {
    this.#verifier = (await this.#source.lookup(this.#user)) ?? mockScramVerifier(this.#user, mockSecret);
    this.#exchange = new ScramServerExchange(this.#user, this.#verifier, this.#channelBinding);
    const mechanisms = this.#exchange.mechanisms.map((mechanism) => `${mechanism}\0`).join("");
    return encodeAuthentication(AuthenticationCode.sasl, Buffer.from(`${mechanisms}\0`, "utf8"));
  }

  receive(message: Buffer): { reply: Buffer; authenticated?: AuthenticatedClient } {
    const exchange = this.#exchange;
    if (exchange === undefined || message[0] !== 0x70) {
      throw new ProtocolViolationError("expected a SASL response during authentication");
    }
    const reader = new MessageReader(message, "SASLResponse");
    if (!this.#started) {
      const mechanism = reader.cString();
      if (!exchange.mechanisms.includes(mechanism)) {
        throw new ProtocolViolationError(`unsupported SASL mechanism "${mechanism.slice(0, 40)}"`);
      }
      const length = reader.int32();
      const clientFirst = message.toString("utf8", reader.offset, reader.offset + Math.max(length, 0));
      this.#started = true;
      return {
        reply: encodeAuthentication(
          AuthenticationCode.saslContinue,
          Buffer.from(exchange.start(clientFirst, mechanism)),
        ),
      };
    }
    const { serverFinal, clientKey } = exchange.finish(message.toString("utf8", reader.offset));
    return {
      reply: encodeAuthentication(AuthenticationCode.saslFinal, Buffer.from(serverFinal)),
      authenticated: { clientKey, verifier: this.#verifier! },
    };
  }
}

/** The `user` parameter of a StartupMessage (whole packet, length included). */
export function startupUser(packet: Buffer): string {
  const reader = new MessageReader(packet, "startup", 8);
  while (reader.remaining > 1) {
    const name = reader.cString();
    const value = reader.cString();
    if (name === "user") return value;
  }
  throw new ProtocolViolationError("no PostgreSQL user name specified in startup packet");
}
