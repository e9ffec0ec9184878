import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, authTestRoles, startAuthTestServer } from "../testing/auth-test-server";
import { connectBackground } from "./connect-background";

// A PostgreSQL asking nlq_auth_password, nlq_auth_md5 and nlq_auth_scram for their passwords (cleartext, MD5, SCRAM)
// and letting nlq_auth_trust in by trust.
let postgres: AuthTestServer;
const home = mkdtempSync(path.join(tmpdir(), "nlq-connect-background-"));
const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };

beforeAll(async () => {
  postgres = await startAuthTestServer();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  rmSync(home, { recursive: true, force: true });
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The URL of the test server for `role`, with `password` when given (as the proxy forms the asking role's URL). */
function urlFor(role: string, password?: string): string {
  const url = new URL(postgres.adminUrl);
  url.username = role;
  url.password = password ?? "";
  return url.toString();
}

async function currentUser(url: string, options?: Parameters<typeof connectBackground>[1]): Promise<string> {
  const connection = await connectBackground(url, options);
  try {
    return String((await connection.executor.query({ sql: "SELECT current_user" })).rows[0]?.[0]);
  } finally {
    await connection.close();
  }
}

describe("connectBackground logs in with the asking session's credentials only", () => {
  const { password, md5, scram, trust } = authTestRoles;

  it("never takes the password of a URL without one from PGPASSWORD, whatever the method", async () => {
    for (const role of [password, md5, scram]) {
      process.env.PGPASSWORD = role.password;
      await expect(currentUser(urlFor(role.name))).rejects.toThrow(/password/);
    }
  });

  it("never takes it from a password file (PGPASSFILE, ~/.pgpass)", async () => {
    delete process.env.PGPASSWORD;
    const file = path.join(home, "pgpass");
    writeFileSync(file, `*:*:*:${scram.name}:${scram.password}\n*:*:*:${md5.name}:${md5.password}\n`, { mode: 0o600 });
    process.env.PGPASSFILE = file;
    await expect(currentUser(urlFor(scram.name))).rejects.toThrow(/password/);
    await expect(currentUser(urlFor(md5.name))).rejects.toThrow(/password/);
    // The same file does log in when the caller opts in (its session used the same sources).
    expect(await currentUser(urlFor(scram.name), { ambientCredentials: true })).toBe(scram.name);
  });

  it("logs in with the URL's own password, and where the server asks for none", async () => {
    process.env.PGPASSWORD = "not-the-password";
    expect(await currentUser(urlFor(scram.name, scram.password))).toBe(scram.name);
    expect(await currentUser(urlFor(md5.name, md5.password))).toBe(md5.name);
    expect(await currentUser(urlFor(trust.name))).toBe(trust.name);
  });

  it("takes PGPASSWORD only when the caller opts in", async () => {
    process.env.PGPASSWORD = scram.password;
    expect(await currentUser(urlFor(scram.name), { ambientCredentials: true })).toBe(scram.name);
  });
});
