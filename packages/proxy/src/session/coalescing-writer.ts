/**
 * Joins adjacent pieces of one received chunk into one write. While a batch is open (`begin` … `end`, around the
 * framing of one chunk), a piece that continues the previous one in memory (the framer hands back subarrays of the
 * chunk: a run of pass-through messages, then an inspected ReadyForQuery or Sync forwarded unchanged) extends it
 * instead of becoming a write of its own; anything else (a message the proxy built, a copy of a split message) first
 * sends what is pending, so the stream order never changes. Outside a batch every write goes out at once.
 *
 * So a chunk of ordinary traffic leaves as one `write` (one system call, no `writev` of several buffers), whatever the
 * number of messages the connection had to look at in it.
 */
export class CoalescingWriter {
  readonly #write: (bytes: Buffer) => void;
  /** The first pending piece, kept as is while nothing extends it (no new view is made for a single piece). */
  #first: Buffer | undefined;
  /** Bytes pending from `#first`'s start: more than `#first.length` when later pieces extended it. */
  #pendingLength = 0;
  #depth = 0;

  constructor(write: (bytes: Buffer) => void) {
    this.#write = write;
  }

  /** Opens a batch (batches nest; the outermost `end` sends what is pending). */
  begin(): void {
    this.#depth++;
  }

  /** Closes a batch; the outermost one sends what is pending. */
  end(): void {
    if (this.#depth > 0) this.#depth--;
    if (this.#depth === 0) this.flush();
  }

  /** Writes `bytes` after everything written before; inside a batch, joins it to an adjacent pending piece. */
  write(bytes: Buffer): void {
    if (this.#depth === 0) {
      this.flush();
      this.#write(bytes);
      return;
    }
    const first = this.#first;
    if (
      first !== undefined &&
      first.buffer === bytes.buffer &&
      first.byteOffset + this.#pendingLength === bytes.byteOffset
    ) {
      this.#pendingLength += bytes.length;
      return;
    }
    this.flush();
    this.#first = bytes;
    this.#pendingLength = bytes.length;
  }

  /** Sends what is pending now (before the socket is ended, or before bytes written around this writer). */
  flush(): void {
    const first = this.#first;
    if (first === undefined) return;
    const length = this.#pendingLength;
    this.#first = undefined;
    this.#pendingLength = 0;
    this.#write(length === first.length ? first : Buffer.from(first.buffer, first.byteOffset, length));
  }

  /** Drops what is pending (the connection is closing and its sockets are destroyed). */
  discard(): void {
    this.#first = undefined;
    this.#pendingLength = 0;
  }
}
