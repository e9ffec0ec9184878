import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AuthTestServer,
  authLookupQuery,
  authLookupRole,
  authTestRoles,
  createTestCertificates,
  startAuthTestServer,
  type TestCertificates,
} from "@nlq/adapters/testing";
import { type ProxyServer, upstreamTlsFromUrl } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSqlAnswerer, startTestProxy } from "./proxy-fixture";
import { psqlWith } from "./tls-auth-fixture";

/**
 * The proxy terminates TLS on both sides and authenticates clients itself (NLQ_AUTH_QUERY_URL): SCRAM-SHA-256 against
 * the verifier a SECURITY DEFINER function returns to a lookup role, then the upstream login with the recovered keys.
 */
let directory: string;
let proxyCertificates: TestCertificates;
let server: AuthTestServer;
let proxy: ProxyServer;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "nlq-auth-query-"));
  proxyCertificates = createTestCertificates(directory);
  const serverDirectory = path.join(directory, "server");
  mkdirSync(serverDirectory);
  const serverCertificates = createTestCertificates(serverDirectory);
  server = await startAuthTestServer(serverCertificates);
  proxy = await startTestProxy(runSqlAnswerer("select current_user::text as who"), {
    upstreamHost: server.host,
    upstreamPort: server.port,
    clientTls: {
      certificateFile: proxyCertificates.certificateFile,
      keyFile: proxyCertificates.keyFile,
      required: true,
    },
    upstreamTls: upstreamTlsFromUrl(
      new URL(
        `postgresql://${server.host}/?sslmode=verify-full&sslrootcert=${encodeURIComponent(serverCertificates.caFile)}`,
      ),
    ),
    authQuery: { url: `postgresql://${authLookupRole}@${server.host}:${server.port}/postgres`, query: authLookupQuery },
  });
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const { scram, md5 } = authTestRoles;
const connection = (user: string, options = "sslmode=require") =>
  `postgresql://${user}@localhost:${proxy.address.port}/postgres?${options}`;

/** node-postgres through the proxy with TLS verified against the proxy's CA. */
const nodeClient = (user: string, password: string) =>
  new pg.Client({
    host: "localhost",
    port: proxy.address.port,
    user,
    password,
    database: "postgres",
    ssl: { ca: readFileSync(proxyCertificates.caFile) },
  });

describe("the proxy authenticates clients itself (auth query), TLS terminated on both sides", () => {
  it("psql logs in with its default channel_binding=prefer; the upstream session is the role's, over TLS", async () => {
    const run = await psqlWith(
      connection(scram.name),
      ["select current_user, ssl from pg_stat_ssl where pid = pg_backend_pid()", "/* nl: who am i? */"],
      scram.password,
    );
    expect(run.stderr).not.toMatch(/ERROR|FATAL/);
    expect(run.stdout.trim().split("\n")).toEqual([`${scram.name}|t`, scram.name]);
  });

  it("node-postgres with ssl logs in", async () => {
    const client = nodeClient(scram.name, scram.password);
    await client.connect();
    try {
      expect((await client.query("select current_user as who")).rows).toEqual([{ who: scram.name }]);
    } finally {
      await client.end();
    }
  });

  it("refuses a wrong password, an unknown role and a role without a SCRAM verifier alike, with 28P01", async () => {
    for (const [user, password] of [
      [scram.name, "wrong-password"],
      ["nlq_no_such_role", "whatever"],
      [md5.name, md5.password],
    ] as const) {
      const run = await psqlWith(connection(user), ["select 1"], password);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain(`password authentication failed for user "${user}"`);
      const client = nodeClient(user, password);
      await expect(client.connect()).rejects.toMatchObject({ code: "28P01" });
    }
  });

  it("offers SCRAM-SHA-256-PLUS bound to its own certificate: channel_binding=require logs in", async () => {
    const run = await psqlWith(
      connection(scram.name, "sslmode=require&channel_binding=require"),
      ["select current_user"],
      scram.password,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe(scram.name);
  });
});
