import { describe, expect, it } from "vitest";
import { ProtocolViolationError } from "./protocol-error";
import { readReadyStatus } from "./ready-for-query";

describe("readReadyStatus", () => {
  it("reads the transaction status", () => {
    expect(readReadyStatus(Buffer.from([0x5a, 0, 0, 0, 5, 0x54]))).toBe("T");
  });

  it("refuses a ReadyForQuery without its status byte (as libpq and the native relay do)", () => {
    expect(() => readReadyStatus(Buffer.from([0x5a, 0, 0, 0, 4]))).toThrow(ProtocolViolationError);
  });
});
