import type { Socket } from "node:net";
import { encodeErrorResponse, type WireNotice } from "../protocol/backend-messages";
import type { FramedSegment } from "../protocol/message-framer";
import { backpressuredWriter } from "./backpressured-writer";
import { ClientInputQueue } from "./client-input-queue";
import { CoalescingWriter } from "./coalescing-writer";
import { leaveNothingBehind } from "./leave-nothing-behind";
import type { BackendKey, ProxyConnectionOptions } from "./proxy-connection-options";
import { ReadPauses } from "./read-pauses";

/** Default limit of client input held while a question is answered: 1 MiB. */
export const DEFAULT_CLIENT_QUEUE_LIMIT_BYTES = 1024 * 1024;

/** What the client socket's events go to. */
export interface ClientSocketEvents {
  readonly data: (chunk: Buffer) => void;
  /** The client shut down its sending side (only for the socket in use, not a raw socket replaced by TLS). */
  readonly end: () => void;
  readonly close: () => void;
}

/**
 * The I/O of one connection, in every state: the client socket (replaced by its TLS socket once a handshake
 * completes) and the upstream socket; the writers toward each (adjacent pieces of one received chunk join into one
 * write, `CoalescingWriter`; a full peer pauses reading the other side, `backpressuredWriter`); the read pauses of
 * each socket; the client input held while the connection cannot handle it (bounded: reading stops past the limit);
 * and the teardown that leaves nothing behind upstream.
 */
export class ConnectionIo {
  #client: Socket;
  /** The client's connection is encrypted (TLS toward the client is terminated here). */
  #clientEncrypted = false;
  #upstream: Socket | undefined;
  readonly #options: ProxyConnectionOptions;
  readonly clientPauses = new ReadPauses(() => this.#client);
  readonly upstreamPauses = new ReadPauses(() => this.#upstream);
  /** Client input held until the connection can handle it (while answering or connecting upstream). */
  readonly clientQueue = new ClientInputQueue();
  readonly clientQueueLimitBytes: number;
  /** Writes to the upstream (joining adjacent pieces of one client chunk); pauses the client until it drains. */
  readonly toUpstream: CoalescingWriter;
  /** Writes to the client (joining adjacent pieces of one upstream chunk); pauses the upstream until it drains. */
  readonly toClient: CoalescingWriter;

  constructor(options: ProxyConnectionOptions) {
    this.#options = options;
    this.#client = options.client;
    this.clientQueueLimitBytes = options.clientQueueLimitBytes ?? DEFAULT_CLIENT_QUEUE_LIMIT_BYTES;
    this.toUpstream = new CoalescingWriter(backpressuredWriter(() => this.#upstream, this.clientPauses));
    this.toClient = new CoalescingWriter(backpressuredWriter(() => this.#client, this.upstreamPauses));
    this.#client.setNoDelay(true);
  }

  get client(): Socket {
    return this.#client;
  }

  get clientEncrypted(): boolean {
    return this.#clientEncrypted;
  }

  get upstream(): Socket | undefined {
    return this.#upstream;
  }

  /** The upstream socket is open: writes to the upstream go to it from now on. */
  attachUpstream(upstream: Socket): void {
    this.#upstream = upstream;
  }

  /** The client's TLS handshake completed: `secure` replaces the raw socket. */
  encryptClient(secure: Socket): void {
    this.#client = secure;
    this.#clientEncrypted = true;
  }

  /** Sends the client socket's events to `events`; its errors are logged. */
  listenToClient(client: Socket, events: ClientSocketEvents): void {
    client.on("data", events.data);
    client.on("end", () => client === this.#client && events.end());
    client.on("close", events.close);
    client.on("error", (error) => this.#options.logger.warn("client socket error", { error: error.message }));
  }

  readonly writeUpstream = (bytes: Buffer): void => this.toUpstream.write(bytes);

  readonly writeClient = (bytes: Buffer): void => this.toClient.write(bytes);

  /** Writes messages the proxy built to the client, after what is pending, in one corked batch. */
  writeClientMessages(messages: readonly Buffer[]): void {
    this.toClient.flush();
    this.#client.cork();
    for (const message of messages) this.#client.write(message);
    this.#client.uncork();
  }

  /** Holds a client segment for later; stops reading the client while too much is held. */
  enqueue(segment: FramedSegment): void {
    this.clientQueue.push(segment);
    if (this.clientQueue.bytes > this.clientQueueLimitBytes) this.clientPauses.hold("queue-full");
  }

  /** Reads the client again once the held input shrank within its limit. */
  releaseQueueFull(): void {
    if (this.clientQueue.bytes <= this.clientQueueLimitBytes) this.clientPauses.release("queue-full");
  }

  /** Ends the client socket with a FATAL ErrorResponse built from `error`, after what is pending. */
  endClientWithFatal(error: WireNotice): void {
    if (this.#client.destroyed) return;
    this.toClient.flush();
    this.#client.end(encodeErrorResponse({ ...error, severity: "FATAL" }));
  }

  /**
   * Tears both sockets down: the client may still read what was sent (its socket is ended); the upstream socket is
   * destroyed, after a CancelRequest with `cancelKey` when a statement may still run (`leaveNothingBehind`).
   */
  tearDown(cancelKey: BackendKey | undefined): void {
    this.toClient.flush();
    this.toUpstream.discard();
    leaveNothingBehind({
      client: this.#client,
      upstream: this.#upstream,
      cancelKey,
      cancelUpstream: this.#options.cancelUpstream,
      logger: this.#options.logger,
    });
  }
}
