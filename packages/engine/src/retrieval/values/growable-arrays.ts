/** Append-only typed arrays that double their capacity: the index's build buffers. */

export class GrowableUint32Array {
  #data: Uint32Array;
  length = 0;
  constructor(initialCapacity = 1024) {
    this.#data = new Uint32Array(Math.max(16, initialCapacity));
  }
  push(value: number): void {
    if (this.length === this.#data.length) this.#grow(this.length + 1);
    this.#data[this.length++] = value;
  }
  /** Reserves room for `count` more elements and returns the backing array and the write offset. */
  reserve(count: number): { array: Uint32Array; offset: number } {
    if (this.length + count > this.#data.length) this.#grow(this.length + count);
    const offset = this.length;
    this.length += count;
    return { array: this.#data, offset };
  }
  #grow(minimum: number): void {
    let capacity = this.#data.length * 2;
    while (capacity < minimum) capacity *= 2;
    const next = new Uint32Array(capacity);
    next.set(this.#data.subarray(0, this.length));
    this.#data = next;
  }
  /** A right-sized copy of the contents. */
  toArray(): Uint32Array {
    return this.#data.slice(0, this.length);
  }
  /** A view of the contents (shares memory; valid until the next push). */
  view(): Uint32Array {
    return this.#data.subarray(0, this.length);
  }
}

export class GrowableBytes {
  #data: Uint8Array;
  length = 0;
  readonly #encoder = new TextEncoder();
  constructor(initialCapacity = 4096) {
    this.#data = new Uint8Array(Math.max(64, initialCapacity));
  }
  /** Appends the UTF-8 encoding of `text`. */
  appendText(text: string): void {
    const maximum = text.length * 3;
    if (this.length + maximum > this.#data.length) {
      let capacity = this.#data.length * 2;
      while (capacity < this.length + maximum) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.#data.subarray(0, this.length));
      this.#data = next;
    }
    const { written } = this.#encoder.encodeInto(text, this.#data.subarray(this.length));
    this.length += written;
  }
  toArray(): Uint8Array {
    return this.#data.slice(0, this.length);
  }
}
