import { ProtocolViolationError } from "./protocol-error";

/**
 * A bounds-checked cursor over one whole frontend message. Every read past the end (or a string with
 * no NUL terminator) throws `ProtocolViolationError` (SQLSTATE 08P01) instead of a `RangeError`, so a
 * malformed message fails only the connection that sent it.
 */
export class MessageReader {
  readonly #message: Buffer;
  readonly #what: string;
  #offset: number;

  /** Reads `message` from `offset` (default 5: just past the type byte and length). */
  constructor(message: Buffer, what: string, offset = 5) {
    this.#message = message;
    this.#what = what;
    this.#offset = offset;
  }

  get offset(): number {
    return this.#offset;
  }

  /** Bytes left after the cursor. */
  get remaining(): number {
    return this.#message.length - this.#offset;
  }

  byte(): number {
    this.#need(1);
    return this.#message[this.#offset++]!;
  }

  int16(): number {
    this.#need(2);
    const value = this.#message.readInt16BE(this.#offset);
    this.#offset += 2;
    return value;
  }

  int32(): number {
    this.#need(4);
    const value = this.#message.readInt32BE(this.#offset);
    this.#offset += 4;
    return value;
  }

  /** A NUL-terminated UTF-8 string. */
  cString(): string {
    const zero = this.#message.indexOf(0, this.#offset);
    if (zero < 0) throw this.#violation("a string without its terminator");
    const text = this.#message.toString("utf8", this.#offset, zero);
    this.#offset = zero + 1;
    return text;
  }

  /** Skips `count` bytes (a non-negative count the caller read from the message). */
  skip(count: number): void {
    if (count < 0) throw this.#violation(`a negative length ${count}`);
    this.#need(count);
    this.#offset += count;
  }

  #need(count: number): void {
    if (this.#offset + count > this.#message.length) throw this.#violation("a message shorter than its fields");
  }

  #violation(problem: string): ProtocolViolationError {
    return new ProtocolViolationError(`invalid ${this.#what} message: ${problem}`);
  }
}
