import { describe, expect, it } from "vitest";
import { clientAddress, createSignInThrottle, SignInThrottledError } from "./sign-in-throttle";

function throttleAt(start = 1_000_000) {
  let now = start;
  const throttle = createSignInThrottle({
    perRole: { attempts: 3, windowMilliseconds: 60_000 },
    perAddress: { attempts: 5, windowMilliseconds: 120_000 },
    now: () => now,
  });
  return { throttle, advance: (milliseconds: number) => (now += milliseconds) };
}

function waitOf(check: () => void): number | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (SignInThrottledError.isInstance(error)) return error.retryAfterSeconds;
    throw error;
  }
}

describe("createSignInThrottle", () => {
  it("refuses a role after its refused attempts until the oldest leaves the window", () => {
    const { throttle, advance } = throttleAt();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(waitOf(() => throttle.check("alice", "10.0.0.1"))).toBeUndefined();
      throttle.recordRefusal("alice", "10.0.0.1");
      advance(10_000);
    }
    // Refusals at 0, 10 and 20 s: the one at 0 s leaves the window at 60 s, 30 s from now.
    expect(waitOf(() => throttle.check("alice", "10.0.0.2"))).toBe(30);
    const error = (() => {
      try {
        throttle.check("alice", undefined);
      } catch (thrown) {
        return thrown as SignInThrottledError;
      }
    })();
    expect(error).toMatchObject({ code: "08004" });
    expect(error?.message).toContain("try again in 30 s");
    // Another role from another address is not affected.
    expect(waitOf(() => throttle.check("bob", "10.0.0.2"))).toBeUndefined();
    advance(30_000);
    expect(waitOf(() => throttle.check("alice", "10.0.0.2"))).toBeUndefined();
  });

  it("refuses an address after its refused attempts, whatever role it tries", () => {
    const { throttle } = throttleAt();
    for (const role of ["a", "b", "c", "d", "e"]) throttle.recordRefusal(role, "10.0.0.9");
    expect(waitOf(() => throttle.check("f", "10.0.0.9"))).toBe(120);
    expect(waitOf(() => throttle.check("f", "10.0.0.8"))).toBeUndefined();
    // Without a known address only the role counts.
    expect(waitOf(() => throttle.check("f", undefined))).toBeUndefined();
  });

  it("forgets a role's refusals once it signs in, and never counts successes", () => {
    const { throttle } = throttleAt();
    throttle.recordRefusal("alice", undefined);
    throttle.recordRefusal("alice", undefined);
    throttle.recordSuccess("alice");
    throttle.recordRefusal("alice", undefined);
    throttle.recordRefusal("alice", undefined);
    expect(waitOf(() => throttle.check("alice", undefined))).toBeUndefined();
  });

  it("remembers a bounded number of roles and addresses", () => {
    let now = 0;
    const throttle = createSignInThrottle({
      perRole: { attempts: 1, windowMilliseconds: 60_000 },
      maximumEntries: 10,
      now: () => now,
    });
    throttle.recordRefusal("first", undefined);
    expect(waitOf(() => throttle.check("first", undefined))).toBe(60);
    for (let index = 0; index < 20; index++) throttle.recordRefusal(`role-${index}`, undefined);
    now += 1;
    expect(waitOf(() => throttle.check("first", undefined))).toBeUndefined();
    expect(waitOf(() => throttle.check("role-19", undefined))).toBe(60);
  });
});

describe("clientAddress", () => {
  it("takes the first X-Forwarded-For entry, then X-Real-IP, else none", () => {
    const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/api/session", { headers });
    expect(clientAddress(request({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" }))).toBe("203.0.113.7");
    expect(clientAddress(request({ "x-real-ip": "203.0.113.8" }))).toBe("203.0.113.8");
    expect(clientAddress(request({}))).toBeUndefined();
  });
});
