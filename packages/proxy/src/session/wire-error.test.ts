import { DatabaseError, UnanswerableQuestionError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import type { ProxyLogger } from "../server/proxy-logger";
import { INTERNAL_ERROR_MESSAGE, toWireError } from "./wire-error";

function recordingLogger(): ProxyLogger & { errors: unknown[] } {
  const errors: unknown[] = [];
  return { errors, info: () => {}, warn: () => {}, error: (_message, fields) => errors.push(fields) };
}

describe("toWireError", () => {
  it("passes NlqError code and message through", () => {
    const logger = recordingLogger();
    const wire = toWireError(new UnanswerableQuestionError("no such data", { question: "q" }), logger);
    expect(wire).toEqual({ severity: "ERROR", code: "22023", message: "no such data" });
    expect(logger.errors).toEqual([]);
  });

  it("keeps PostgreSQL's detail and hint of a DatabaseError", () => {
    const wire = toWireError(
      new DatabaseError("duplicate key", { sql: "insert", code: "23505", detail: "Key (id)=(1)", hint: "h" }),
      recordingLogger(),
    );
    expect(wire).toEqual({
      severity: "ERROR",
      code: "23505",
      message: "duplicate key",
      detail: "Key (id)=(1)",
      hint: "h",
    });
  });

  it("cuts message, detail and hint at 1,000 characters", () => {
    const long = `${"x".repeat(5_000)}tail-marker`;
    const wire = toWireError(
      new DatabaseError(long, { sql: "select", code: "42601", detail: long, hint: long }),
      recordingLogger(),
    );
    for (const text of [wire.message, wire.detail, wire.hint]) {
      expect(text).toBe(`${"x".repeat(1_000)}…`);
    }
  });

  it("replaces anything else by a generic XX000 and logs the real error", () => {
    const logger = recordingLogger();
    const wire = toWireError(new Error("password=hunter2"), logger);
    expect(wire).toEqual({ severity: "ERROR", code: "XX000", message: INTERNAL_ERROR_MESSAGE });
    expect(JSON.stringify(wire)).not.toContain("hunter2");
    expect(logger.errors).toHaveLength(1);
    expect(toWireError("a string", logger).message).toBe(INTERNAL_ERROR_MESSAGE);
  });
});
