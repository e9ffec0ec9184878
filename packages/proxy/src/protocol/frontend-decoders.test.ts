import { seededRandom } from "@nlq/engine";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { readBind, readDescribeOrClose } from "./extended-messages";
import { readParse, readQueryText, readStartupPacket } from "./frontend-messages";
import { ProtocolViolationError } from "./protocol-error";

const decoders: Array<{ name: string; decode: (message: Buffer) => unknown; valid: Buffer }> = [
  { name: "readBind", decode: readBind, valid: serialize.bind({ portal: "p", statement: "s", values: ["a", null] }) },
  { name: "readParse", decode: readParse, valid: serialize.parse({ name: "s", text: "select $1", types: [23] }) },
  { name: "readQueryText", decode: readQueryText, valid: serialize.query("select 1") },
  { name: "readDescribeOrClose", decode: readDescribeOrClose, valid: serialize.describe({ type: "S", name: "s" }) },
  {
    name: "readStartupPacket",
    decode: readStartupPacket,
    valid: Buffer.from([0, 0, 0, 16, 0x04, 0xd2, 0x16, 0x2e, 0, 0, 0, 1, 0, 0, 0, 2]),
  },
];

/** Calls `decode`; any error other than a protocol violation fails the test. */
function decodeOrViolation(decode: (message: Buffer) => unknown, message: Buffer): void {
  try {
    decode(message);
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolViolationError);
    expect((error as ProtocolViolationError).code).toBe("08P01");
  }
}

describe("frontend message decoders", () => {
  it("reject the malformed Bind of reproduction 2 with a protocol violation, not a RangeError", () => {
    expect(() => readBind(Buffer.from([0x42, 0, 0, 0, 5, 0]))).toThrow(ProtocolViolationError);
  });

  it("reject negative counts and lengths in Bind", () => {
    const negativeCount = Buffer.from([0x42, 0, 0, 0, 10, 0, 0, 0xff, 0xff, 0, 0]);
    expect(() => readBind(negativeCount)).toThrow(/negative/);
    const negativeLength = Buffer.concat([
      Buffer.from([0x42, 0, 0, 0, 16, 0, 0, 0, 0, 0, 1]),
      Buffer.from([0xff, 0xff, 0xff, 0xfe]),
      Buffer.from([0, 0]),
    ]);
    expect(() => readBind(negativeLength)).toThrow(/parameter length -2/);
  });

  it("reject an unknown Describe target and a short CancelRequest", () => {
    expect(() => readDescribeOrClose(Buffer.from("D\0\0\0\x06X\0", "latin1"))).toThrow(/unknown target/);
    expect(() => readStartupPacket(Buffer.from([0, 0, 0, 12, 0x04, 0xd2, 0x16, 0x2e, 0, 0, 0, 1]))).toThrow(
      ProtocolViolationError,
    );
  });

  for (const { name, decode, valid } of decoders) {
    it(`${name} decodes its valid message and fails every truncation only with a protocol violation`, () => {
      expect(() => decode(valid)).not.toThrow();
      for (let length = 0; length < valid.length; length++) decodeOrViolation(decode, valid.subarray(0, length));
    });

    it(`${name} fails random and mutated bodies only with a protocol violation`, () => {
      const random = seededRandom(6);
      for (let round = 0; round < 2_000; round++) {
        const message = Buffer.from(valid);
        const flips = 1 + Math.floor(random() * 4);
        for (let flip = 0; flip < flips; flip++) {
          message[Math.floor(random() * message.length)] = Math.floor(random() * 256);
        }
        decodeOrViolation(decode, message);
        const noise = Buffer.from(Array.from({ length: Math.floor(random() * 24) }, () => Math.floor(random() * 256)));
        decodeOrViolation(decode, Buffer.concat([valid.subarray(0, 5), noise]));
      }
    });
  }
});
