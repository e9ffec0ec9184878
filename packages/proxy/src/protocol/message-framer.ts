import { ProtocolViolationError } from "./protocol-error";

/**
 * Header-only framer for the PostgreSQL wire protocol, one per direction.
 *
 * It reads only the five-byte header (type byte + int32 length) of each message and finds message
 * boundaries in chunks split at any offset. Messages the consumer does not inspect are handed back as
 * `bytes` segments: subarrays of the original chunk (no copy), possibly several messages or a part of
 * one. Inspected messages are handed back whole (copied only when a message was split across chunks).
 *
 * An inspected message the consumer refuses at its header (`skip`) is dropped as it streams: its body is never held.
 * An inspected message longer than `large.limit` is held only up to that many bytes: then the consumer decides on
 * its head whether it is held whole after all, passed on as it streams, or dropped as it streams.
 *
 * Startup-phase packets (StartupMessage, SSLRequest, GSSENCRequest, CancelRequest) have no type byte;
 * the framer expects one such packet first when `startup` is true, and again after `expectStartupPacket()`.
 */
export type FramedSegment =
  | {
      readonly kind: "message";
      /** The type byte, or `STARTUP_PACKET_TYPE` (0) for an untyped startup-phase packet. */
      readonly type: number;
      /** The whole message including its header. */
      readonly message: Buffer;
    }
  | {
      readonly kind: "bytes";
      readonly bytes: Buffer;
      /** Part of a large inspected message passed on as it streams (`large`), and of nothing else. */
      readonly large?: true;
    };

export type SegmentListener = (segment: FramedSegment) => void;

/**
 * What becomes of a large inspected message, decided on its head: held whole, passed on or dropped as it streams, or
 * not decided yet (`defer`: asked again when more of it arrives; the consumer stops reading meanwhile).
 */
export type LargeMessageFate = "hold" | "pass" | "drop" | "defer";

/** Type reported for untyped startup-phase packets. */
export const STARTUP_PACKET_TYPE = 0;

export interface MessageFramerOptions {
  /** Which message types are handed back whole; consulted once per message, at its header. */
  readonly inspect: (type: number) => boolean;
  /**
   * Whether to drop an inspected message of `type` and `total` bytes (type byte included) instead of holding it;
   * consulted once per inspected message, at its header, after every earlier segment was handed back. The consumer
   * accounts for a dropped message when it says so: the framer hands back nothing of it. Default: never.
   */
  readonly skip?: (type: number, total: number) => boolean;
  /**
   * Inspected messages of more than `limit` bytes: once their first `limit` bytes (header included) arrived,
   * `decide(type, total, head)` says what becomes of them (after every earlier segment was handed back): `hold` (handed
   * back whole, as usual), `pass` (handed back as `bytes`, the head at once and the rest as it streams) or `drop`
   * (nothing of it is handed back; the consumer accounts for it). Default: every inspected message is held whole.
   */
  readonly large?: {
    readonly limit: number;
    readonly decide: (type: number, total: number, head: Buffer) => LargeMessageFate;
  };
  /** Whether the first packet is an untyped startup-phase packet (default false). */
  readonly startup?: boolean;
  /** Largest accepted message length in bytes (default 1 GiB, PostgreSQL's own limit). */
  readonly maximumMessageLength?: number;
}

interface MessageInProgress {
  readonly type: number;
  readonly total: number;
  /** Held to be handed back whole. */
  inspected: boolean;
  /** Dropped as it streams (`skip`, or a large message's `drop`): neither held nor passed on. */
  skipped: boolean;
  /** A large inspected message whose fate is not decided yet. */
  deciding: boolean;
  /** A large inspected message passed on as it streams. */
  passing: boolean;
  remaining: number;
  parts: Buffer[];
  /** Bytes held in `parts`. */
  held: number;
}

const MAXIMUM_STARTUP_PACKET_LENGTH = 10_000;

/** A message whose bytes are still arriving: held (`hold`, `decide` for a large one), passed on, or dropped. */
function inProgress(
  type: number,
  total: number,
  remaining: number,
  mode: "hold" | "decide" | "pass" | "skip",
): MessageInProgress {
  const inspected = mode === "hold" || mode === "decide";
  const deciding = mode === "decide";
  return { type, total, inspected, skipped: mode === "skip", deciding, passing: false, remaining, parts: [], held: 0 };
}

export class MessageFramer {
  readonly #inspect: (type: number) => boolean;
  readonly #skip: (type: number, total: number) => boolean;
  readonly #large: MessageFramerOptions["large"];
  readonly #maximumMessageLength: number;
  #startup: boolean;
  #header: Buffer = Buffer.alloc(5);
  #headerLength = 0;
  #current: MessageInProgress | null = null;

  constructor(options: MessageFramerOptions) {
    this.#inspect = options.inspect;
    this.#skip = options.skip ?? (() => false);
    this.#large = options.large;
    this.#startup = options.startup ?? false;
    this.#maximumMessageLength = options.maximumMessageLength ?? 0x40000000;
  }

  /** The next packet is an untyped startup-phase packet (after answering SSLRequest/GSSENCRequest). */
  expectStartupPacket(): void {
    this.#startup = true;
  }

  /** True when no partial message is held: the stream is at a message boundary. */
  get atBoundary(): boolean {
    return this.#current === null && this.#headerLength === 0;
  }

  /** Frames one chunk; `onSegment` is called synchronously, in stream order. */
  push(chunk: Buffer, onSegment: SegmentListener): void {
    let offset = 0;
    let passStart = -1;
    const flushPass = (end: number, large = false) => {
      if (passStart >= 0 && end > passStart) {
        const bytes = chunk.subarray(passStart, end);
        onSegment(large ? { kind: "bytes", bytes, large } : { kind: "bytes", bytes });
      }
      passStart = -1;
    };
    while (offset < chunk.length) {
      const current = this.#current;
      if (current !== null) {
        const take = Math.min(current.remaining, chunk.length - offset);
        if (current.inspected) {
          current.parts.push(chunk.subarray(offset, offset + take));
          current.held += take;
        } else if (!current.skipped && passStart < 0) passStart = offset;
        offset += take;
        current.remaining -= take;
        if (current.passing) flushPass(offset, true);
        if (current.deciding && current.held >= this.#large!.limit) this.#decide(current, onSegment);
        if (current.remaining === 0) {
          this.#current = null;
          if (current.inspected) {
            const message = current.parts.length === 1 ? current.parts[0]! : Buffer.concat(current.parts);
            onSegment({ kind: "message", type: current.type, message });
          }
        }
        continue;
      }
      const headerSize = this.#startup ? 4 : 5;
      if (this.#headerLength === 0 && chunk.length - offset >= headerSize) {
        const startup = this.#startup;
        const { type, total } = this.#readHeader(chunk, offset);
        const inspected = startup || this.#inspect(type);
        this.#startup = false;
        if (!inspected && chunk.length - offset >= total) {
          // The common pass-through case: a whole uninspected message in this chunk joins the run as is.
          if (passStart < 0) passStart = offset;
          offset += total;
          continue;
        }
        if (inspected) flushPass(offset);
        const large = inspected && !startup && this.#large !== undefined && total > this.#large.limit;
        if (inspected && this.#skip(type, total)) {
          this.#current = inProgress(type, total, total, "skip");
          continue;
        }
        if (inspected && chunk.length - offset >= total) {
          const message = chunk.subarray(offset, offset + total);
          offset += total;
          const fate = large ? this.#large!.decide(type, total, message.subarray(0, this.#large!.limit)) : "hold";
          // A whole inspected message in this chunk: handed back as a subarray (no copy, no bookkeeping).
          if (fate === "hold" || fate === "defer") onSegment({ kind: "message", type, message });
          else if (fate === "pass") onSegment({ kind: "bytes", bytes: message, large: true });
          continue;
        }
        this.#current = inProgress(type, total, total, inspected ? (large ? "decide" : "hold") : "pass");
        continue;
      }
      // The header is split across chunks: keep its bytes (at most five) until it is complete.
      flushPass(offset);
      const take = Math.min(headerSize - this.#headerLength, chunk.length - offset);
      chunk.copy(this.#header, this.#headerLength, offset, offset + take);
      this.#headerLength += take;
      offset += take;
      if (this.#headerLength < headerSize) continue;
      const header = Buffer.from(this.#header.subarray(0, headerSize));
      this.#headerLength = 0;
      const startup = this.#startup;
      const { type, total } = this.#readHeader(header, 0);
      const inspected = startup || this.#inspect(type);
      this.#startup = false;
      const skipped = inspected && this.#skip(type, total);
      const large = inspected && !skipped && !startup && this.#large !== undefined && total > this.#large.limit;
      const remaining = total - headerSize;
      if (!skipped && !inspected) onSegment({ kind: "bytes", bytes: header });
      this.#current = inProgress(
        type,
        total,
        remaining,
        skipped ? "skip" : inspected ? (large ? "decide" : "hold") : "pass",
      );
      if (inspected && !skipped) {
        this.#current.parts.push(header);
        this.#current.held = headerSize;
      }
      if (this.#current.remaining === 0) {
        const finished = this.#current;
        this.#current = null;
        if (finished.inspected) onSegment({ kind: "message", type: finished.type, message: header });
      }
    }
    flushPass(offset);
  }

  /** A large message's head has arrived: the consumer decides its fate. */
  #decide(current: MessageInProgress, onSegment: SegmentListener): void {
    current.deciding = false;
    const head = Buffer.concat(current.parts);
    const fate = this.#large!.decide(current.type, current.total, head.subarray(0, this.#large!.limit));
    if (fate === "hold" || fate === "defer") {
      current.parts = [head];
      current.deciding = fate === "defer";
      return;
    }
    current.parts = [];
    current.held = 0;
    current.inspected = false;
    current.skipped = fate === "drop";
    current.passing = fate === "pass";
    if (current.passing) onSegment({ kind: "bytes", bytes: head, large: true });
  }

  #readHeader(buffer: Buffer, offset: number): { type: number; total: number } {
    if (this.#startup) {
      const length = buffer.readInt32BE(offset);
      if (length < 8 || length > MAXIMUM_STARTUP_PACKET_LENGTH) {
        throw new ProtocolViolationError(`invalid startup packet length ${length}`);
      }
      return { type: STARTUP_PACKET_TYPE, total: length };
    }
    const type = buffer[offset]!;
    const length = buffer.readInt32BE(offset + 1);
    if (length < 4 || length > this.#maximumMessageLength) {
      throw new ProtocolViolationError(`invalid length ${length} for message type '${String.fromCharCode(type)}'`);
    }
    return { type, total: 1 + length };
  }
}
