import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRoleSessions } from "./role-sessions";
import { handleSignIn } from "./sign-in-request";
import { createSignInThrottle } from "./sign-in-throttle";

// The real sign-in path against the local PostgreSQL: a role that does not exist is refused by PostgreSQL (28000),
// whatever its authentication method, so refusals are real; `postgres` signs in (trust on the test server).
const databaseUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const sessions = createRoleSessions({ databaseUrl });
afterAll(() => sessions.close());

function signInRequest(user: string, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1:3000/api/session", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ user, password: "guess" }),
  });
}

describe("POST /api/session (handleSignIn)", () => {
  it("answers 429 with Retry-After once a role's refused sign-ins reach the limit, without asking PostgreSQL", async () => {
    const throttle = createSignInThrottle({ perRole: { attempts: 3, windowMilliseconds: 600_000 } });
    let asked = 0;
    const dependencies = {
      sessions: () => {
        asked += 1;
        return sessions;
      },
      throttle,
    };
    const victim = `nlq_no_such_role_${randomBytes(4).toString("hex")}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await handleSignIn(signInRequest(victim), dependencies)).status).toBe(401);
    }
    const throttled = await handleSignIn(signInRequest(victim), dependencies);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(590);
    expect(((await throttled.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "08004",
      message: expect.stringContaining("Too many refused sign-ins"),
    });
    expect(asked).toBe(3);
    // Other roles still sign in.
    const signedIn = await handleSignIn(signInRequest("postgres"), dependencies);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("set-cookie")).toContain("nlq_session=");
  });

  it("answers 429 for every role from an address that used up its refusals", async () => {
    const throttle = createSignInThrottle({ perAddress: { attempts: 4, windowMilliseconds: 600_000 } });
    const dependencies = { sessions: () => sessions, throttle };
    const from = { "x-forwarded-for": "203.0.113.50" };
    for (let attempt = 0; attempt < 4; attempt++) {
      const role = `nlq_no_such_role_${randomBytes(4).toString("hex")}`;
      expect((await handleSignIn(signInRequest(role, from), dependencies)).status).toBe(401);
    }
    expect((await handleSignIn(signInRequest("postgres", from), dependencies)).status).toBe(429);
    expect(
      (await handleSignIn(signInRequest("postgres", { "x-forwarded-for": "203.0.113.51" }), dependencies)).status,
    ).toBe(200);
  });
});
