import type { FramedSegment } from "../protocol/message-framer";

/** Size of a segment's bytes. */
function sizeOf(segment: FramedSegment): number {
  return segment.kind === "message" ? segment.message.length : segment.bytes.length;
}

/**
 * Client input held while a question is answered, with its size in bytes: the connection stops reading
 * the client once `bytes` exceeds its limit, so a client pipelining without end cannot grow the proxy's
 * memory (the kernel's TCP window pushes back instead).
 */
export class ClientInputQueue {
  #segments: FramedSegment[] = [];
  /** Index of the oldest segment in `#segments` (shifting a long array one by one would be quadratic). */
  #head = 0;
  #bytes = 0;
  #peakBytes = 0;

  get length(): number {
    return this.#segments.length - this.#head;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The most bytes ever held at once. */
  get peakBytes(): number {
    return this.#peakBytes;
  }

  push(segment: FramedSegment): void {
    this.#segments.push(segment);
    this.#bytes += sizeOf(segment);
    if (this.#bytes > this.#peakBytes) this.#peakBytes = this.#bytes;
  }

  /** The oldest segment (the queue must not be empty). */
  shift(): FramedSegment {
    const segment = this.#segments[this.#head++]!;
    this.#bytes -= sizeOf(segment);
    if (this.#head === this.#segments.length) this.clear();
    else if (this.#head > 1024 && this.#head * 2 > this.#segments.length) {
      this.#segments = this.#segments.slice(this.#head);
      this.#head = 0;
    }
    return segment;
  }

  clear(): void {
    this.#segments = [];
    this.#head = 0;
    this.#bytes = 0;
  }
}
