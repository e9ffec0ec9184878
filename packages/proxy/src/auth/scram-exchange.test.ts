import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AuthenticationFailedError } from "./authentication-failed-error";
import { SCRAM_SHA_256, SCRAM_SHA_256_PLUS, ScramServerExchange } from "./scram-server-exchange";
import { ScramUpstreamLogin } from "./scram-upstream-login";
import { mockScramVerifier, parseScramVerifier, type ScramVerifier } from "./scram-verifier";

/** What PostgreSQL stores for `password` (RFC 5802's keys), built independently of the code under test. */
function keysFor(password: string, salt: Buffer = randomBytes(16), iterations = 4096) {
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  const text = `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
  return { clientKey, verifier: parseScramVerifier(text)! };
}

/** Runs a whole exchange: `login` plays the client toward a server exchange over `verifier`. */
function exchange(login: ScramUpstreamLogin, verifier: ScramVerifier, tamper = (final: string) => final) {
  const server = new ScramServerExchange("alice", verifier);
  const serverFirst = server.start(login.clientFirst);
  const result = server.finish(tamper(login.respond(serverFirst)));
  login.verify(result.serverFinal);
  return result;
}

describe("SCRAM-SHA-256 against a stored verifier", () => {
  it("parses PostgreSQL's verifier format and nothing else", () => {
    const { verifier } = keysFor("secret");
    expect(verifier.iterations).toBe(4096);
    expect(verifier.storedKey).toHaveLength(32);
    expect(parseScramVerifier("md5a3556571e93b0d20722ba62be61e8c2d")).toBeUndefined();
    expect(parseScramVerifier(null)).toBeUndefined();
  });

  it("accepts the right key, recovers the ClientKey from the proof, and the client checks the server's signature", () => {
    const { clientKey, verifier } = keysFor("right password");
    const result = exchange(new ScramUpstreamLogin(clientKey, verifier), verifier);
    expect(result.clientKey.equals(clientKey)).toBe(true);
  });

  it("refuses a wrong password, a changed nonce, a channel-binding claim and a mock verifier with 28P01", () => {
    const { clientKey, verifier } = keysFor("right password");
    const wrong = keysFor("wrong password", verifier.salt).clientKey;
    expect(() => exchange(new ScramUpstreamLogin(wrong, verifier), verifier)).toThrow(AuthenticationFailedError);
    expect(() =>
      exchange(new ScramUpstreamLogin(clientKey, verifier), verifier, (final) => final.replace(/r=([^,]+)/, "r=$1x")),
    ).toThrow('password authentication failed for user "alice"');
    const server = new ScramServerExchange("alice", verifier);
    expect(() => server.start("p=tls-server-end-point,,n=,r=abc")).toThrow(AuthenticationFailedError);
    const mock = mockScramVerifier("alice", randomBytes(32));
    expect(() => exchange(new ScramUpstreamLogin(clientKey, mock), mock)).toThrow(AuthenticationFailedError);
  });

  it("a server signature from another verifier is refused by the upstream login", () => {
    const { clientKey, verifier } = keysFor("right password");
    const login = new ScramUpstreamLogin(clientKey, keysFor("other", verifier.salt).verifier);
    const server = new ScramServerExchange("alice", verifier);
    const result = server.finish(login.respond(server.start(login.clientFirst)));
    expect(() => login.verify(result.serverFinal)).toThrow(/signature/);
  });

  it("with channel binding offered: -PLUS must bind to exactly the proxy's data, and gs2 flag y is a downgrade", () => {
    const { clientKey, verifier } = keysFor("right password");
    const binding = randomBytes(32);
    const boundFinal = (data: Buffer, serverFirst: string, clientFirst: string) => {
      // A binding client: c= carries the gs2 header and the data; the proof covers it (computed as a client would).
      const header = Buffer.from("p=tls-server-end-point,,");
      const nonce = /r=([^,]+)/.exec(serverFirst)![1];
      const withoutProof = `c=${Buffer.concat([header, data]).toString("base64")},r=${nonce}`;
      const authMessage = `${clientFirst.slice(header.length)},${serverFirst},${withoutProof}`;
      const signature = createHmac("sha256", createHash("sha256").update(clientKey).digest())
        .update(authMessage)
        .digest();
      const proof = Buffer.from(clientKey.map((byte, index) => byte ^ signature[index]!));
      return `${withoutProof},p=${proof.toString("base64")}`;
    };
    const clientFirst = "p=tls-server-end-point,,n=,r=clientnonce";
    const server = new ScramServerExchange("alice", verifier, binding);
    expect(server.mechanisms).toEqual([SCRAM_SHA_256_PLUS, SCRAM_SHA_256]);
    const serverFirst = server.start(clientFirst, SCRAM_SHA_256_PLUS);
    expect(server.finish(boundFinal(binding, serverFirst, clientFirst)).clientKey.equals(clientKey)).toBe(true);

    const other = new ScramServerExchange("alice", verifier, binding);
    const otherFirst = other.start(clientFirst, SCRAM_SHA_256_PLUS);
    expect(() => other.finish(boundFinal(randomBytes(32), otherFirst, clientFirst))).toThrow(AuthenticationFailedError);

    expect(() => new ScramServerExchange("alice", verifier, binding).start("y,,n=,r=abc", SCRAM_SHA_256)).toThrow(
      AuthenticationFailedError,
    );
    expect(() => new ScramServerExchange("alice", verifier).start("y,,n=,r=abc", SCRAM_SHA_256)).not.toThrow();
    expect(() => new ScramServerExchange("alice", verifier).start(clientFirst, SCRAM_SHA_256_PLUS)).toThrow(
      AuthenticationFailedError,
    );
  });
});
