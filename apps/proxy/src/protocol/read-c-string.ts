/** A NUL-terminated UTF-8 string at `offset`, and the offset just past its NUL. */
export function readCString(buffer: Buffer, offset: number): { text: string; end: number } {
  const zero = buffer.indexOf(0, offset);
  const end = zero < 0 ? buffer.length : zero;
  return { text: buffer.toString("utf8", offset, end), end: end + 1 };
}
