import { describe, expect, it } from "vitest";
import { allowedOrigins, normalizedOrigin, originRefusal } from "./request-origin";

describe("the Origin check of MCP over HTTP", () => {
  it("normalises origins as browsers send them and rejects what is no origin", () => {
    expect(normalizedOrigin("HTTP://LocalHost:8765")).toBe("http://localhost:8765");
    expect(normalizedOrigin("https://assistant.example.com:443")).toBe("https://assistant.example.com");
    expect(normalizedOrigin("http://[::1]:8765")).toBe("http://[::1]:8765");
    for (const text of ["https://a.example/path", "ftp://a.example", "a.example", "https://user@a.example"]) {
      expect(normalizedOrigin(text), text).toBeUndefined();
    }
  });

  it("serves the server's own origin (every loopback spelling on loopback), the configured ones and no Origin at all", () => {
    const loopback = allowedOrigins("127.0.0.1", 8765, ["https://assistant.example.com"]);
    expect([...loopback].sort()).toEqual([
      "http://127.0.0.1:8765",
      "http://[::1]:8765",
      "http://localhost:8765",
      "https://assistant.example.com",
    ]);
    expect([...allowedOrigins("10.0.0.5", 80)]).toEqual(["http://10.0.0.5"]);
    expect(originRefusal(undefined, loopback)).toBeUndefined();
    expect(originRefusal("http://localhost:8765", loopback)).toBeUndefined();
    expect(originRefusal("http://localhost:8766", loopback)).toMatch(/not allowed/);
    expect(originRefusal(["http://localhost:8765", "http://evil.example"], loopback)).toMatch(/not allowed/);
    expect(() => allowedOrigins("127.0.0.1", 1, ["*"])).toThrow(/not an origin/);
  });
});
