import { describe, expect, it } from "vitest";
import { CoalescingWriter } from "./coalescing-writer";

function recordingWriter() {
  const writes: Buffer[] = [];
  return { writes, writer: new CoalescingWriter((bytes) => writes.push(Buffer.from(bytes))) };
}

describe("CoalescingWriter", () => {
  it("joins adjacent pieces of one chunk into one write at the end of the batch", () => {
    const { writes, writer } = recordingWriter();
    const chunk = Buffer.from("abcdefgh");
    writer.begin();
    writer.write(chunk.subarray(0, 3));
    writer.write(chunk.subarray(3, 5));
    writer.write(chunk.subarray(5));
    expect(writes).toEqual([]);
    writer.end();
    expect(writes.map(String)).toEqual(["abcdefgh"]);
  });

  it("keeps the order around a piece that is not adjacent (a message the proxy built)", () => {
    const { writes, writer } = recordingWriter();
    const chunk = Buffer.from("abcdef");
    writer.begin();
    writer.write(chunk.subarray(0, 2));
    writer.write(Buffer.from("XY"));
    writer.write(chunk.subarray(2, 4));
    writer.write(chunk.subarray(5));
    writer.end();
    expect(writes.map(String)).toEqual(["ab", "XY", "cd", "f"]);
  });

  it("writes at once outside a batch, after whatever is pending", () => {
    const { writes, writer } = recordingWriter();
    writer.write(Buffer.from("now"));
    expect(writes.map(String)).toEqual(["now"]);
    const chunk = Buffer.from("abcd");
    writer.begin();
    writer.begin();
    writer.write(chunk.subarray(0, 2));
    writer.end();
    expect(writes.map(String)).toEqual(["now"]);
    writer.flush();
    writer.write(chunk.subarray(2));
    writer.end();
    expect(writes.map(String)).toEqual(["now", "ab", "cd"]);
  });

  it("drops what is pending on discard", () => {
    const { writes, writer } = recordingWriter();
    writer.begin();
    writer.write(Buffer.from("lost"));
    writer.discard();
    writer.end();
    expect(writes).toEqual([]);
  });
});
