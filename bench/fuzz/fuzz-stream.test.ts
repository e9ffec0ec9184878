import { seededRandom } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { fuzzStream, splitAtRandomOffsets } from "./fuzz-stream";

const options = { user: "fuzz", database: "postgres", maximumFrames: 60 };

describe("fuzzStream", () => {
  it("sends the same streams for the same seed", () => {
    const first = Array.from(
      { length: 50 },
      (
        (random) => () =>
          fuzzStream(random, options)
      )(seededRandom(7)),
    );
    const second = Array.from(
      { length: 50 },
      (
        (random) => () =>
          fuzzStream(random, options)
      )(seededRandom(7)),
    );
    expect(second).toEqual(first);
  });

  it("covers questions, extended batches, bad lengths, pipelining during startup and truncation", () => {
    const random = seededRandom(11);
    const streams = Array.from({ length: 500 }, () => fuzzStream(random, options));
    const sessions = streams.map((stream) => Buffer.concat(stream.sessionWrites as Buffer[]));
    expect(sessions.some((bytes) => bytes.includes("/* nl:"))).toBe(true);
    expect(sessions.some((bytes) => bytes.includes(Buffer.from([0x42, 0, 0, 0])))).toBe(true);
    expect(sessions.some((bytes) => bytes.includes(Buffer.from([0xff, 0xff, 0xff, 0xff])))).toBe(true);
    expect(streams.some((stream) => !stream.waitForReady)).toBe(true);
    expect(streams.some((stream) => stream.sessionWrites.length > 1)).toBe(true);
    expect(streams.reduce((total, stream) => total + stream.frames, 0)).toBeGreaterThan(500 * 20);
  });
});

describe("splitAtRandomOffsets", () => {
  it("cuts without losing or reordering a byte", () => {
    const random = seededRandom(3);
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, index) => index % 256));
    for (let round = 0; round < 200; round++) {
      const writes = splitAtRandomOffsets(random, bytes);
      expect(Buffer.concat(writes).equals(bytes)).toBe(true);
      expect(writes.every((write) => write.length > 0)).toBe(true);
    }
  });
});
