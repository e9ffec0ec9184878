import { describe, expect, it } from "vitest";
import { checkSameOrigin, isSecureRequest } from "./same-origin";
import { cookieValue, sealSessionId, sessionCookieHeader, unsealSessionId } from "./session-cookie";
import { CrossOriginRequestError } from "./web-errors";

const key = "k".repeat(32);

describe("session cookie", () => {
  it("seals only the session id, unseals it with the same key and refuses another key or a tampered value", async () => {
    const sealed = await sealSessionId("session-123", key);
    expect(sealed).not.toContain("session-123");
    expect(await unsealSessionId(sealed, key)).toBe("session-123");
    expect(await unsealSessionId(sealed, "o".repeat(32))).toBeUndefined();
    expect(await unsealSessionId(`${sealed.slice(0, -4)}AAAA`, key)).toBeUndefined();
    expect(await unsealSessionId("garbage", key)).toBeUndefined();
  });

  it("reads the cookie from the header and writes HttpOnly SameSite=Lax cookies, Secure over HTTPS", () => {
    expect(cookieValue("a=1; nlq_session=x%2By; b=2", "nlq_session")).toBe("x+y");
    expect(cookieValue(null, "nlq_session")).toBeUndefined();
    expect(sessionCookieHeader("abc", false)).toBe("nlq_session=abc; Path=/; HttpOnly; SameSite=Lax");
    expect(sessionCookieHeader("abc", true)).toContain("; Secure");
    expect(sessionCookieHeader("", false)).toContain("Max-Age=0");
  });
});

describe("checkSameOrigin", () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://127.0.0.1:3000/api/chat", { method: "POST", headers });
  it("accepts this site's Origin and requests without browser headers", () => {
    expect(() => checkSameOrigin(request({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }))).not.toThrow();
    expect(() => checkSameOrigin(request({ host: "127.0.0.1:3000" }))).not.toThrow();
  });
  it("refuses another Origin and cross-site fetches", () => {
    expect(() => checkSameOrigin(request({ origin: "http://evil.test", host: "127.0.0.1:3000" }))).toThrow(
      CrossOriginRequestError,
    );
    expect(() => checkSameOrigin(request({ origin: "null", host: "127.0.0.1:3000" }))).toThrow(CrossOriginRequestError);
    expect(() => checkSameOrigin(request({ "sec-fetch-site": "cross-site", host: "127.0.0.1:3000" }))).toThrow(
      CrossOriginRequestError,
    );
  });
  it("knows HTTPS from the URL or X-Forwarded-Proto", () => {
    expect(isSecureRequest(new Request("https://nlq.test/"))).toBe(true);
    expect(isSecureRequest(new Request("http://nlq.test/", { headers: { "x-forwarded-proto": "https" } }))).toBe(true);
    expect(isSecureRequest(new Request("http://nlq.test/"))).toBe(false);
  });
});
