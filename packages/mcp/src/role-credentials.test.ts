import { describe, expect, it } from "vitest";
import { credentialsDigest, parseAuthorization, sameCredentials } from "./role-credentials";

const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("parseAuthorization", () => {
  it("reads HTTP Basic as role:password, the password free to hold colons", () => {
    expect(parseAuthorization(`Basic ${base64("analyst:pa:ss word")}`)).toEqual({
      role: "analyst",
      password: "pa:ss word",
    });
  });

  it("reads a bearer token role:password", () => {
    expect(parseAuthorization("Bearer analyst:secret")).toEqual({ role: "analyst", password: "secret" });
    expect(parseAuthorization("bearer   analyst:secret ")).toEqual({ role: "analyst", password: "secret" });
  });

  it("refuses missing, other schemes, no role, no password, bad base64 and NUL characters", () => {
    expect(parseAuthorization(undefined)).toBeUndefined();
    expect(parseAuthorization("Digest abc")).toBeUndefined();
    expect(parseAuthorization(`Basic ${base64(":secret")}`)).toBeUndefined();
    expect(parseAuthorization(`Basic ${base64("analyst:")}`)).toBeUndefined();
    expect(parseAuthorization(`Basic ${base64("analyst")}`)).toBeUndefined();
    expect(parseAuthorization("Basic not*base64")).toBeUndefined();
    expect(parseAuthorization(`Basic ${base64("analyst:se\u0000cret")}`)).toBeUndefined();
  });
});

describe("credentialsDigest", () => {
  it("tells the same credentials from another role's or another password", () => {
    const analyst = credentialsDigest({ role: "analyst", password: "secret" });
    expect(sameCredentials(analyst, credentialsDigest({ role: "analyst", password: "secret" }))).toBe(true);
    expect(sameCredentials(analyst, credentialsDigest({ role: "analyst", password: "other" }))).toBe(false);
    expect(sameCredentials(analyst, credentialsDigest({ role: "analys", password: "tsecret" }))).toBe(false);
  });
});
