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
  | { readonly kind: "bytes"; readonly bytes: Buffer };

export type SegmentListener = (segment: FramedSegment) => void;

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
  /** Whether the first packet is an untyped startup-phase packet (default false). */
  readonly startup?: boolean;
  /** Largest accepted message length in bytes (default 1 GiB, PostgreSQL's own limit). */
  readonly maximumMessageLength?: number;
}

interface MessageInProgress {
  readonly type: number;
  readonly inspected: boolean;
  /** Dropped as it streams (`skip`): neither held nor passed on. */
  readonly skipped: boolean;
  remaining: number;
  readonly parts: Buffer[];
}

const MAXIMUM_STARTUP_PACKET_LENGTH = 10_000;

export class MessageFramer {
  readonly #inspect: (type: number) => boolean;
  readonly #skip: (type: number, total: number) => boolean;
  readonly #maximumMessageLength: number;
  #startup: boolean;
  #header: Buffer = Buffer.alloc(5);
  #headerLength = 0;
  #current: MessageInProgress | null = null;

  constructor(options: MessageFramerOptions) {
    this.#inspect = options.inspect;
    this.#skip = options.skip ?? (() => false);
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
    const flushPass = (end: number) => {
      if (passStart >= 0 && end > passStart) onSegment({ kind: "bytes", bytes: chunk.subarray(passStart, end) });
      passStart = -1;
    };
    while (offset < chunk.length) {
      const current = this.#current;
      if (current !== null) {
        const take = Math.min(current.remaining, chunk.length - offset);
        if (current.inspected) current.parts.push(chunk.subarray(offset, offset + take));
        else if (!current.skipped && passStart < 0) passStart = offset;
        offset += take;
        current.remaining -= take;
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
        const { type, total } = this.#readHeader(chunk, offset);
        const inspected = this.#startup || this.#inspect(type);
        this.#startup = false;
        if (!inspected && chunk.length - offset >= total) {
          // The common pass-through case: a whole uninspected message in this chunk joins the run as is.
          if (passStart < 0) passStart = offset;
          offset += total;
          continue;
        }
        if (inspected) flushPass(offset);
        if (inspected && this.#skip(type, total)) {
          this.#current = { type, inspected: false, skipped: true, remaining: total, parts: [] };
          continue;
        }
        if (inspected && chunk.length - offset >= total) {
          // A whole inspected message in this chunk: handed back as a subarray (no copy, no bookkeeping).
          const message = chunk.subarray(offset, offset + total);
          offset += total;
          onSegment({ kind: "message", type, message });
          continue;
        }
        this.#current = { type, inspected, skipped: false, remaining: total, parts: [] };
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
      const { type, total } = this.#readHeader(header, 0);
      const inspected = this.#startup || this.#inspect(type);
      this.#startup = false;
      const skipped = inspected && this.#skip(type, total);
      if (skipped) {
        this.#current = { type, inspected: false, skipped, remaining: total - headerSize, parts: [] };
      } else if (inspected) {
        this.#current = { type, inspected, skipped, remaining: total - headerSize, parts: [header] };
      } else {
        onSegment({ kind: "bytes", bytes: header });
        this.#current = { type, inspected, skipped, remaining: total - headerSize, parts: [] };
      }
      if (this.#current.remaining === 0) {
        const finished = this.#current;
        this.#current = null;
        if (finished.inspected) onSegment({ kind: "message", type: finished.type, message: header });
      }
    }
    flushPass(offset);
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
