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

  it("drops a message refused at its header as it streams, at any split, and keeps the rest whole and in order", () => {
    const DATA_ROW = 0x44;
    const huge = Buffer.concat([Buffer.from([DATA_ROW, 0, 0, 0x10, 0x04]), Buffer.alloc(0x1000, 0x78)]);
    const small = Buffer.concat([Buffer.from([DATA_ROW, 0, 0, 0, 6]), Buffer.from("ok")]);
    const complete = Buffer.from([0x43, 0, 0, 0, 4]);
    const input = Buffer.concat([small, huge, small, complete]);
    for (const size of [1, 3, 7, 100, input.length]) {
      const refused: number[] = [];
      const framer = new MessageFramer({
        inspect: () => true,
        skip: (type, total) => {
          if (type === DATA_ROW && total > 100) refused.push(total);
          return type === DATA_ROW && total > 100;
        },
      });
      const kept: Buffer[] = [];
      for (let offset = 0; offset < input.length; offset += size) {
        framer.push(input.subarray(offset, offset + size), (segment) => kept.push(bytesOf(segment)));
        // Refused at its header, before its body arrived: nothing of it is ever handed back.
        if (offset + size >= small.length + 5 && offset + size < small.length + huge.length) {
          expect(refused).toEqual([huge.length]);
        }
      }
      expect(refused).toEqual([huge.length]);
      expect(kept.map((bytes) => bytes.toString("hex"))).toEqual(
        [small, small, complete].map((b) => b.toString("hex")),
      );
      expect(framer.atBoundary).toBe(true);
    }
  });

  it.each(["pass", "drop", "hold"] as const)(
    "decides a large message's fate on its head at any split, holding no more than the head (%s)",
    (fate) => {
      const large = serialize.query(`select '${"y".repeat(1000)}'`);
      const input = Buffer.concat([query, large, query]);
      for (const size of [1, 7, 64, 150, input.length]) {
        const heads: Buffer[] = [];
        const framer = new MessageFramer({
          inspect: (type) => type === QUERY,
          large: {
            limit: 100,
            decide: (_type, total, head) => {
              expect(total).toBe(large.length);
              heads.push(Buffer.from(head));
              return fate;
            },
          },
        });
        const segments: FramedSegment[] = [];
        for (let offset = 0; offset < input.length; offset += size) {
          framer.push(input.subarray(offset, offset + size), (segment) => segments.push(segment));
        }
        expect(framer.atBoundary).toBe(true);
        expect(heads.map((head) => head.toString("hex"))).toEqual([large.subarray(0, 100).toString("hex")]);
        const messages = segments.filter((segment) => segment.kind === "message").map((segment) => bytesOf(segment));
        const passed = Buffer.concat(segments.filter((segment) => segment.kind === "bytes").map(bytesOf));
        expect(messages.length).toBe(fate === "hold" ? 3 : 2);
        expect(passed.equals(fate === "pass" ? large : Buffer.alloc(0))).toBe(true);
        // What is passed of it is marked as such, in segments of its own.
        expect(segments.every((segment) => segment.kind === "message" || segment.large === true)).toBe(true);
        // Order: the first query, the large one (as bytes or a message), the last query.
        if (fate !== "drop") expect(Buffer.concat(segments.map(bytesOf)).equals(input)).toBe(true);
      }
    },
  );

  it("asks again about a deferred large message as more of it arrives, then passes all of it in order", () => {
    const large = serialize.query(`select '${"z".repeat(1000)}'`);
    const input = Buffer.concat([query, large, query]);
    const heads: number[] = [];
    const framer = new MessageFramer({
      inspect: (type) => type === QUERY,
      large: {
        limit: 100,
        decide: (_type, _total, head) => {
          heads.push(head.length);
          return heads.length < 3 ? "defer" : "pass";
        },
      },
    });
    const segments: FramedSegment[] = [];
    for (let offset = 0; offset < input.length; offset += 64) {
      framer.push(input.subarray(offset, offset + 64), (segment) => segments.push(segment));
    }
    // Decided on its first 100 bytes each time, three times: two deferrals, then a pass.
    expect(heads).toEqual([100, 100, 100]);
    expect(Buffer.concat(segments.map(bytesOf)).equals(input)).toBe(true);
    expect(segments.filter((segment) => segment.kind === "message")).toHaveLength(2);
  });

  it("rejects impossible lengths", () => {
    const framer = new MessageFramer({ inspect: () => true });
    expect(() => framer.push(Buffer.from([0x51, 0, 0, 0, 2]), () => {})).toThrow(ProtocolViolationError);
    const startupFramer = new MessageFramer({ startup: true, inspect: () => true });
    expect(() => startupFramer.push(Buffer.from([0x7f, 0, 0, 0]), () => {})).toThrow(ProtocolViolationError);
  });
});
