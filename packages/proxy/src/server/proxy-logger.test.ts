import { describe, expect, it } from "vitest";
import { createJsonLogger } from "./proxy-logger";

function collectingLogger() {
  const lines: string[] = [];
  const logger = createJsonLogger({ write: (line: string) => lines.push(line) });
  return { logger, lines };
}

describe("createJsonLogger", () => {
  it("writes one JSON line per entry with an ISO time, a level name, the message and the fields", () => {
    const { logger, lines } = collectingLogger();
    logger.info("listening", { host: "127.0.0.1", port: 6432 });
    logger.warn("careful");
    expect(lines).toHaveLength(2);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: "info", msg: "listening", host: "127.0.0.1", port: 6432 });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: "warn", msg: "careful" });
  });

  it("serialises an error field with its name, message and stack", () => {
    const { logger, lines } = collectingLogger();
    logger.error("failed", { error: new TypeError("bad input") });
    const entry = JSON.parse(lines[0]!);
    expect(entry.level).toBe("error");
    expect(entry.error).toMatchObject({ type: "TypeError", message: "bad input" });
    expect(entry.error.stack).toContain("bad input");
  });
});
