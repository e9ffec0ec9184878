import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import type { AuthSource } from "../auth/auth-query";
import { ClientAuthentication, startupUser } from "../auth/client-authentication";
import { ScramUpstreamLogin } from "../auth/scram-upstream-login";
import { MessageType } from "../protocol/frontend-messages";
import { tlsServerEndPoint } from "../tls/tls-server-end-point";
import type { ConnectionContext } from "./connection-context";
import { type AuthenticatingClientState, isClosed } from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { openUpstream } from "./open-upstream";
import { answerUpstreamAuthentication } from "./upstream-authentication";

/**
 * The authentication exchange, after the StartupMessage (`startup-handshake.ts`) and before Ready.
 *
 * - **AuthenticatingClient** (only with an auth source, `NLQ_AUTH_QUERY_URL`): the proxy runs SCRAM-SHA-256 with the
 *   client itself against the source's verifier (SCRAM-SHA-256-PLUS on TLS, bound to the proxy's certificate); it
 *   accepts the client's SASL responses only. On success the upstream is opened, and the proxy then logs in upstream
 *   with the client's recovered keys (`ScramUpstreamLogin`), answering the upstream's SASL requests itself.
 * - **ConnectingUpstream**: the upstream connection opens (TLS negotiated first); client input is queued, then sent.
 * - **Authenticating**: the StartupMessage went upstream; the client's and the upstream's messages pass through (the
 *   upstream's authentication requests answered here during the proxy's own login). The upstream's first
 *   ReadyForQuery moves the connection to Ready (`upstream-replies.ts`).
 */
export class AuthenticationExchange {
  readonly #context: ConnectionContext;
  /** The proxy's SCRAM login upstream with the client's recovered keys, until AuthenticationOk. */
  #upstreamLogin: ScramUpstreamLogin | undefined;

  constructor(context: ConnectionContext) {
    this.#context = context;
  }

  /** Runs SCRAM-SHA-256 with the client against the auth source's verifier; the upstream is opened once it succeeds. */
  authenticateClient(packet: Buffer, source: AuthSource): void {
    const { io } = this.#context;
    // On a TLS connection SCRAM-SHA-256-PLUS is offered, bound to the proxy's own certificate.
    const binding = io.clientEncrypted ? tlsServerEndPoint(io.client as TLSSocket) : undefined;
    const authentication = new ClientAuthentication(startupUser(packet), source, binding);
    this.#context.state = { step: ConnectionStep.AuthenticatingClient, authentication, startupPacket: packet };
    authentication.begin().then(
      (request) => {
        if (!isClosed(this.#context.state)) io.writeClient(request);
      },
      (error: unknown) => this.#context.fail(error),
    );
  }

  /** A client message during the proxy's own SCRAM exchange (AuthenticatingClient). */
  onClientMessage(state: AuthenticatingClientState, message: Buffer): void {
    const { reply, authenticated } = state.authentication.receive(message);
    this.#context.io.writeClient(reply);
    if (authenticated === undefined) return;
    this.#upstreamLogin = new ScramUpstreamLogin(authenticated.clientKey, authenticated.verifier);
    this.openUpstream(state.startupPacket);
  }

  /** Opens the upstream connection and sends it the StartupMessage (at once, or once TLS is negotiated). */
  openUpstream(packet: Buffer): void {
    const context = this.#context;
    const upstream = openUpstream({
      connectUpstream: context.options.connectUpstream,
      client: () => context.io.client,
      logger: context.options.logger,
      onData: (chunk) => context.onUpstreamData(chunk),
      onClose: () => context.close("upstream closed"),
    });
    context.pendingReady.expect();
    if (upstream instanceof Promise) {
      context.state = { step: ConnectionStep.ConnectingUpstream };
      upstream.then(
        (opened) => this.#onUpstreamOpened(opened, packet),
        (error: unknown) => context.fail(error),
      );
    } else {
      context.io.attachUpstream(upstream);
      context.state = { step: ConnectionStep.Authenticating };
      context.io.writeUpstream(packet);
    }
  }

  /** The upstream connection is open (TLS negotiated): send the StartupMessage and the client input held meanwhile. */
  #onUpstreamOpened(upstream: Socket | undefined, startupPacket: Buffer): void {
    const context = this.#context;
    if (upstream === undefined || isClosed(context.state)) {
      upstream?.destroy();
      context.close("upstream not opened");
      return;
    }
    context.io.attachUpstream(upstream);
    context.state = { step: ConnectionStep.Authenticating };
    context.io.writeUpstream(startupPacket);
    try {
      context.drainClientQueue();
    } catch (error) {
      context.fail(error);
    }
  }

  /** Whether an upstream message of `type` must be framed whole for the proxy's own login upstream. */
  inspectsUpstream(type: number): boolean {
    return type === MessageType.authenticationRequest && this.#upstreamLogin !== undefined;
  }

  /**
   * An upstream authentication request: true when the proxy's own login answered it (it is not forwarded); false
   * once the login is over (AuthenticationOk) or when none runs. Throws `UpstreamLoginError` for a method it cannot use.
   */
  answersUpstream(message: Buffer): boolean {
    const login = this.#upstreamLogin;
    if (login === undefined) return false;
    if (answerUpstreamAuthentication(message, login, this.#context.io.writeUpstream) === "answered") return true;
    this.#upstreamLogin = undefined;
    return false;
  }
}
