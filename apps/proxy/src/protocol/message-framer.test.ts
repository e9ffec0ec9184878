import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { type FramedSegment, MessageFramer, STARTUP_PACKET_TYPE } from "./message-framer";
import { ProtocolViolationError } from "./protocol-error";

const startup = serialize.startup({ user: "postgres", database: "postgres" });
const query = serialize.query("select 1");
const parse = serialize.parse({ text: "select $1::int", name: "s1" });
const bind = serialize.bind({ statement: "s1", values: ["7"] });
const execute = serialize.execute();
const sync = serialize.sync();
const copyData = serialize.copyData(Buffer.from("1\tone\n"));
const stream = Buffer.concat([startup, query, parse, bind, execute, sync, copyData, query]);

const QUERY = 0x51;
const SYNC = 0x53;

function frame(chunks: Buffer[]): FramedSegment[] {
  const framer = new MessageFramer({ startup: true, inspect: (type) => type === QUERY || type === SYNC });
  const segments: FramedSegment[] = [];
  for (const chunk of chunks) framer.push(chunk, (segment) => segments.push(segment));
  expect(framer.atBoundary).toBe(true);
  return segments;
}

function bytesOf(segment: FramedSegment): Buffer {
  return segment.kind === "message" ? segment.message : segment.bytes;
}

function expectFaithful(segments: FramedSegment[]): void {
  expect(Buffer.concat(segments.map(bytesOf)).equals(stream)).toBe(true);
  const messages = segments.filter((segment) => segment.kind === "message");
  expect(messages.map((segment) => segment.type)).toEqual([STARTUP_PACKET_TYPE, QUERY, SYNC, QUERY]);
  expect(messages[0]!.message.equals(startup)).toBe(true);
  expect(messages[1]!.message.equals(query)).toBe(true);
  expect(messages[2]!.message.equals(sync)).toBe(true);
  expect(messages[3]!.message.equals(query)).toBe(true);
}

describe("MessageFramer", () => {
  it("passes uninspected messages through as slices of the original chunk", () => {
    const segments = frame([stream]);
    expectFaithful(segments);
    const passthrough = segments.filter((segment) => segment.kind === "bytes");
    // parse + bind + execute are one run; copyData is another.
    expect(passthrough).toHaveLength(2);
    for (const segment of passthrough) expect(segment.bytes.buffer).toBe(stream.buffer);
    for (const segment of segments) if (segment.kind === "message") expect(segment.message.buffer).toBe(stream.buffer);
  });

  it("finds the same boundaries when the stream is split at any single offset", () => {
    for (let split = 1; split < stream.length; split++) {
      expectFaithful(frame([stream.subarray(0, split), stream.subarray(split)]));
    }
  });

  it("finds the same boundaries when the stream is split at any two offsets", () => {
    for (let first = 1; first < stream.length; first++) {
      for (let second = first; second < stream.length; second++) {
        expectFaithful(frame([stream.subarray(0, first), stream.subarray(first, second), stream.subarray(second)]));
      }
    }
  });

  it("handles one byte at a time", () => {
    const chunks = [...stream].map((byte) => Buffer.from([byte]));
    expectFaithful(frame(chunks));
  });

  it("expects another untyped packet after expectStartupPacket()", () => {
    const sslRequest = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
    const framer = new MessageFramer({ startup: true, inspect: () => false });
    const types: number[] = [];
    framer.push(sslRequest, (segment) => {
      if (segment.kind === "message") types.push(segment.type);
      framer.expectStartupPacket();
    });
    framer.push(Buffer.concat([startup, query]), (segment) => {
      if (segment.kind === "message") types.push(segment.type);
    });
    expect(types).toEqual([STARTUP_PACKET_TYPE, STARTUP_PACKET_TYPE]);
  });

  it("rejects impossible lengths", () => {
    const framer = new MessageFramer({ inspect: () => true });
    expect(() => framer.push(Buffer.from([0x51, 0, 0, 0, 2]), () => {})).toThrow(ProtocolViolationError);
    const startupFramer = new MessageFramer({ startup: true, inspect: () => true });
    expect(() => startupFramer.push(Buffer.from([0x7f, 0, 0, 0]), () => {})).toThrow(ProtocolViolationError);
  });
});
