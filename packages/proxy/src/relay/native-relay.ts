import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { resumeReading, socketDescriptor, stopReading } from "./socket-reading";

/** Why the native relay handed a connection back. */
export type RelayHandBackReason =
  /** The client sent a Query or Parse holding the question marker: it is the first of `clientInput`. */
  | "question"
  /** JavaScript asked for the connection back (`release`, before shutting down). */
  | "release"
  /** A message length outside PostgreSQL's limits: the offending message is the first of its side's input. */
  | "protocol"
  /** The client's socket ended or failed. */
  | "client-closed"
  /** The upstream's socket ended or failed. */
  | "upstream-closed"
  /** The client shut down its sending side (it still reads): handed back at a message boundary, to finish and close. */
  | "client-ended";

/** A connection handed back by the native relay, with everything it held. */
export interface RelayHandBack {
  readonly reason: RelayHandBackReason;
  /** ReadyForQuery messages the upstream still owes. */
  readonly pendingReady: number;
  /** Extended-protocol messages went upstream since the last Sync. */
  readonly forwardedSinceSync: boolean;
  /** The transaction status of the last ReadyForQuery (`I`, `T`, `E`). */
  readonly readyStatus: string;
  /** The upstream is in COPY FROM STDIN (CopyInResponse seen, the COPY not ended yet). */
  readonly copyIn: boolean;
  /** Syncs forwarded since the client's last Execute, Query or FunctionCall (`CopyInState.syncsAfterCommand`). */
  readonly syncsAfterCommand: number;
  /** Client bytes read and not forwarded; they start at a message boundary. */
  readonly clientInput: Buffer | undefined;
  /** Upstream bytes read and not forwarded; they start at a message boundary. */
  readonly upstreamInput: Buffer | undefined;
  /** Bytes for the client that its socket did not take yet: written before anything else. */
  readonly toClient: Buffer | undefined;
  /** Bytes for the upstream that its socket did not take yet: written before anything else. */
  readonly toUpstream: Buffer | undefined;
  /** A parked connection's client socket descriptor (`NativeRelay.park`), now the caller's to wrap and close. */
  readonly clientDescriptor?: number;
  /** A parked connection's upstream socket descriptor, now the caller's to wrap and close. */
  readonly upstreamDescriptor?: number;
}

/** The connection state the relay starts from (the JavaScript connection's, at the moment it hands over). */
export interface RelayStartState {
  readonly pendingReady: number;
  readonly forwardedSinceSync: boolean;
  readonly readyStatus: string;
  readonly copyIn: boolean;
  /** Syncs forwarded since the client's last Execute, Query or FunctionCall (`CopyInState.syncsAfterCommand`). */
  readonly syncsAfterCommand: number;
}

/** A connection the native relay moves bytes for. */
export interface RelayedConnection {
  /**
   * Asks for the connection back: its hand-back at once when both directions are at a message boundary, else
   * undefined, and `onHandBack` receives it (reason `release`) as soon as they are.
   */
  release(): RelayHandBack | undefined;
  /** Drops the connection at once, whatever it holds (its sockets are about to be destroyed); no hand-back follows. */
  detach(): void;
  /** Its hand-back at once when at a message boundary (`release`); otherwise it is dropped (`detach`): undefined. */
  releaseOrDetach(): RelayHandBack | undefined;
}

interface NativeRelayAddon {
  createRelay(onHandBack: (handBack: RelayHandBack & { readonly id: number }) => void): unknown;
  adopt(
    relay: unknown,
    clientDescriptor: number,
    upstreamDescriptor: number,
    marker: Buffer,
    pendingReady: number,
    forwardedSinceSync: boolean,
    readyStatus: string,
    copyIn: boolean,
    syncsAfterCommand: number,
    ownsDescriptors: boolean,
  ): number;
  release(relay: unknown, id: number): (RelayHandBack & { readonly id: number }) | undefined;
  detach(relay: unknown, id: number): boolean;
  markerMayOccur(marker: Buffer, bytes: Buffer): boolean;
}

/** Where `scripts/build-native-relay.mjs` puts the addon. */
const ADDON_PATH = fileURLToPath(new URL("../../native/build/pass-through-relay.node", import.meta.url));

/**
 * The native pass-through relay (`packages/proxy/native/pass-through-relay.c`): one thread that moves the bytes of ordinary
 * SQL between clients and their upstream connections, framing and looking at messages as the JavaScript connection
 * does, and hands a connection back to it when a question arrives, a socket closes or it is asked to. One per process.
 */
export class NativeRelay {
  readonly #addon: NativeRelayAddon;
  readonly #handle: unknown;
  readonly #onHandBack = new Map<number, (handBack: RelayHandBack) => void>();

  constructor(addon: NativeRelayAddon) {
    this.#addon = addon;
    this.#handle = addon.createRelay((handBack) => {
      const listener = this.#onHandBack.get(handBack.id);
      this.#onHandBack.delete(handBack.id);
      listener?.(handBack);
    });
  }

  /** Connections adopted and not handed back or detached yet. */
  get adoptedCount(): number {
    return this.#onHandBack.size;
  }

  /**
   * Takes over both sockets (plain TCP sockets whose Node.js side holds nothing unwritten or unread): Node.js stops
   * reading them until the connection is handed back, when they are read again. Undefined when they cannot be adopted
   * (no descriptor, a TLS socket, …): nothing changed then.
   */
  adopt(
    client: Socket,
    upstream: Socket,
    marker: Buffer,
    state: RelayStartState,
    onHandBack: (handBack: RelayHandBack) => void,
  ): RelayedConnection | undefined {
    return this.#adopt(client, upstream, marker, state, onHandBack, false);
  }

  /**
   * Adopts both sockets as `adopt` does, on duplicates of their descriptors that the relay owns: the caller then
   * destroys both Node.js sockets (`parkedSockets`), and the session costs no JavaScript object but what the caller
   * keeps. The hand-back carries the descriptors (`clientDescriptor`, `upstreamDescriptor`), to wrap in new sockets
   * (`socketOfDescriptor`); a detached parked connection's descriptors are closed by the relay.
   */
  park(
    client: Socket,
    upstream: Socket,
    marker: Buffer,
    state: RelayStartState,
    onHandBack: (handBack: RelayHandBack) => void,
  ): RelayedConnection | undefined {
    return this.#adopt(client, upstream, marker, state, onHandBack, true);
  }

  #adopt(
    client: Socket,
    upstream: Socket,
    marker: Buffer,
    state: RelayStartState,
    onHandBack: (handBack: RelayHandBack) => void,
    ownsDescriptors: boolean,
  ): RelayedConnection | undefined {
    const clientDescriptor = socketDescriptor(client);
    const upstreamDescriptor = socketDescriptor(upstream);
    if (clientDescriptor === undefined || upstreamDescriptor === undefined) return undefined;
    stopReading(client);
    stopReading(upstream);
    const id = this.#addon.adopt(
      this.#handle,
      clientDescriptor,
      upstreamDescriptor,
      marker,
      state.pendingReady,
      state.forwardedSinceSync,
      state.readyStatus,
      state.copyIn,
      state.syncsAfterCommand,
      ownsDescriptors,
    );
    if (id < 0) {
      resumeReading(client);
      resumeReading(upstream);
      return undefined;
    }
    this.#onHandBack.set(id, onHandBack);
    return new AdoptedConnection(this, id);
  }

  /** `RelayedConnection.release` of the connection `id`. */
  releaseConnection(id: number): RelayHandBack | undefined {
    const handBack = this.#addon.release(this.#handle, id);
    if (handBack !== undefined) this.#onHandBack.delete(id);
    return handBack;
  }

  /** `RelayedConnection.detach` of the connection `id`. */
  detachConnection(id: number): void {
    this.#onHandBack.delete(id);
    this.#addon.detach(this.#handle, id);
  }

  /** The relay's own marker test on `bytes` (the twin of `QuestionMarker.mayOccurInBytes`), for tests. */
  markerMayOccur(marker: Buffer, bytes: Buffer): boolean {
    return this.#addon.markerMayOccur(marker, bytes);
  }
}

/** One adopted connection: its id and its relay, no closure of its own (a parked session keeps one of these). */
class AdoptedConnection implements RelayedConnection {
  readonly #relay: NativeRelay;
  readonly #id: number;

  constructor(relay: NativeRelay, id: number) {
    this.#relay = relay;
    this.#id = id;
  }

  release(): RelayHandBack | undefined {
    return this.#relay.releaseConnection(this.#id);
  }

  detach(): void {
    this.#relay.detachConnection(this.#id);
  }

  releaseOrDetach(): RelayHandBack | undefined {
    const handBack = this.release();
    if (handBack === undefined) this.detach();
    return handBack;
  }
}

let loaded: { readonly relay: NativeRelay | undefined; readonly unavailable: string | undefined } | undefined;

/**
 * The process's native relay, started on first use; undefined when the addon is not built here (not Linux, no C
 * compiler at install: `scripts/build-native-relay.mjs` said why) or does not load. `nativeRelayUnavailable()` says why.
 */
export function nativeRelay(): NativeRelay | undefined {
  loaded ??= loadNativeRelay();
  return loaded.relay;
}

/** Why `nativeRelay()` is undefined; undefined when it is available. */
export function nativeRelayUnavailable(): string | undefined {
  loaded ??= loadNativeRelay();
  return loaded.unavailable;
}

function loadNativeRelay(): { relay: NativeRelay | undefined; unavailable: string | undefined } {
  if (!existsSync(ADDON_PATH)) {
    return { relay: undefined, unavailable: "not built (npm run build compiles it; it needs a C compiler)" };
  }
  try {
    const addon = createRequire(import.meta.url)(ADDON_PATH) as NativeRelayAddon;
    return { relay: new NativeRelay(addon), unavailable: undefined };
  } catch (error) {
    return {
      relay: undefined,
      unavailable: `does not load: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
