import { type AuthMethod, type AuthTestServer, authTestRoles, startAuthTestServer } from "@nlq/adapters/testing";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSqlAnswerer, startTestProxy } from "./proxy-fixture";
import { firstAuthenticationRequest, psqlWith } from "./tls-auth-fixture";

/**
 * Authentication passes through the proxy untouched when it does not terminate TLS: a dedicated PostgreSQL whose
 * pg_hba.conf has one role per method (trust, password, md5, scram-sha-256), real psql and node-postgres as clients.
 */
let server: AuthTestServer;
let proxy: ProxyServer;

beforeAll(async () => {
  server = await startAuthTestServer();
  proxy = await startTestProxy(runSqlAnswerer("select current_user::text as who"), {
    upstreamHost: server.host,
    upstreamPort: server.port,
  });
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

const expectedRequest: Record<AuthMethod, string> = {
  trust: "authenticationOk",
  password: "authenticationCleartextPassword",
  md5: "authenticationMD5Password",
  scram: "authenticationSASL",
};
const methods = Object.keys(authTestRoles) as AuthMethod[];

describe.each(methods)("%s authentication through the proxy", (method) => {
  const role = authTestRoles[method];
  const connection = () => `postgresql://${role.name}@127.0.0.1:${proxy.address.port}/postgres?sslmode=disable`;

  it("reaches the client as the server sent it", async () => {
    const direct = await firstAuthenticationRequest(server.host, server.port, role.name);
    const proxied = await firstAuthenticationRequest("127.0.0.1", proxy.address.port, role.name);
    expect(direct.name).toBe(expectedRequest[method]);
    expect(proxied.name).toBe(direct.name);
    if (method === "scram") expect(proxied.mechanisms).toEqual(["SCRAM-SHA-256"]);
  });

  it("logs in with psql (PGPASSWORD) and answers ordinary SQL and a question", async () => {
    const run = await psqlWith(connection(), ["select current_user", "/* nl: who am i? */"], role.password);
    expect(run.stderr).toMatch(/^NOTICE: {2}nlq: select current_user::text as who/);
    expect(run.stderr).not.toMatch(/ERROR|FATAL/);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([role.name, role.name]);
  });

  it("logs in with node-postgres", async () => {
    const client = new pg.Client({
      host: "127.0.0.1",
      port: proxy.address.port,
      user: role.name,
      database: "postgres",
      ...(role.password === undefined ? {} : { password: role.password }),
    });
    await client.connect();
    try {
      expect((await client.query("select current_user as who")).rows).toEqual([{ who: role.name }]);
    } finally {
      await client.end();
    }
  });

  if (method === "trust") return;
  it("refuses a wrong password with 28P01, through psql and node-postgres", async () => {
    const run = await psqlWith(connection(), ["select 1"], "wrong-password");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`password authentication failed for user "${role.name}"`);
    const client = new pg.Client({
      host: "127.0.0.1",
      port: proxy.address.port,
      user: role.name,
      database: "postgres",
      password: "wrong-password",
    });
    await expect(client.connect()).rejects.toMatchObject({ code: "28P01" });
  });
});
