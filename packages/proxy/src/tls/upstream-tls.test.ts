import { createServer, type Server } from "node:net";
import { type AuthTestServer, authTestRoles, startAuthTestServer } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerWith, startTestProxy, upstreamHost, upstreamPort, upstreamUser } from "../server/proxy.test-helpers";
import type { ProxyServer } from "../server/proxy-server";
import { createTemporaryCertificates, type TemporaryCertificates } from "./temporary-certificates.test-helpers";
import { upstreamTlsFromUrl } from "./upstream-tls-settings";

let certificates: TemporaryCertificates;
let server: AuthTestServer;
const proxies: ProxyServer[] = [];

beforeAll(async () => {
  certificates = createTemporaryCertificates("nlq-upstream-tls-");
  server = await startAuthTestServer(certificates);
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await server?.stop();
  certificates?.remove();
});

/** A proxy in front of `host:port` with the upstream URL's query string `query`. */
async function proxyWith(query: string, host = server.host, port = server.port): Promise<ProxyServer> {
  const proxy = await startTestProxy(
    (options) => answerWith(options, "select ssl from pg_stat_ssl where pid = pg_backend_pid()"),
    {
      upstreamHost: host,
      upstreamPort: port,
      upstreamTls: upstreamTlsFromUrl(new URL(`postgresql://${host}:${port}/postgres?${query}`)),
    },
  );
  proxies.push(proxy);
  return proxy;
}

/** Whether the upstream session of a connection through `proxy` (as `user`) is encrypted, per pg_stat_ssl. */
async function upstreamEncrypted(proxy: ProxyServer, user = "postgres", password?: string): Promise<boolean> {
  const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user, password, database: "postgres" });
  await client.connect();
  try {
    const direct = await client.query<{ ssl: boolean }>("select ssl from pg_stat_ssl where pid = pg_backend_pid()");
    const asked = await client.query<{ ssl: boolean }>("/* nl: is this encrypted? */");
    expect(asked.rows[0]!.ssl).toBe(direct.rows[0]!.ssl);
    return direct.rows[0]!.ssl;
  } finally {
    await client.end();
  }
}

describe("TLS toward the upstream, per the upstream URL's sslmode", () => {
  it("connects in plaintext without sslmode or with sslmode=disable", async () => {
    expect(await upstreamEncrypted(await proxyWith(""))).toBe(false);
    expect(await upstreamEncrypted(await proxyWith("sslmode=disable"))).toBe(false);
  });

  it("encrypts with prefer, require, verify-ca and verify-full (the test CA, the certificate names 127.0.0.1)", async () => {
    expect(await upstreamEncrypted(await proxyWith("sslmode=prefer"))).toBe(true);
    expect(await upstreamEncrypted(await proxyWith("sslmode=require"))).toBe(true);
    const rootCertificate = `sslrootcert=${encodeURIComponent(certificates.caFile)}`;
    expect(await upstreamEncrypted(await proxyWith(`sslmode=verify-ca&${rootCertificate}`))).toBe(true);
    const verifyFull = await proxyWith(`sslmode=verify-full&${rootCertificate}`);
    expect(await upstreamEncrypted(verifyFull)).toBe(true);
    const { name, password } = authTestRoles.scram;
    expect(await upstreamEncrypted(verifyFull, name, password)).toBe(true);
  });

  it("refuses a server certificate from another CA (verify-ca, and require with sslrootcert) with FATAL 08006", async () => {
    for (const mode of ["verify-ca", "verify-full", "require"]) {
      const proxy = await proxyWith(`sslmode=${mode}&sslrootcert=${encodeURIComponent(certificates.otherCaFile)}`);
      const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user: "postgres" });
      await expect(client.connect()).rejects.toMatchObject({
        code: "08006",
        message: expect.stringMatching(/TLS toward the upstream server failed .*certificate/),
      });
    }
  });

  it("against a server without TLS: prefer goes on in plaintext, require fails with 08006", async () => {
    const prefer = await proxyWith("sslmode=prefer", upstreamHost, upstreamPort);
    const client = new pg.Client({ host: upstreamHost, port: prefer.address.port, user: upstreamUser });
    await client.connect();
    const sslOn = (await client.query<{ ssl: string }>("show ssl")).rows[0]!.ssl;
    await client.end();
    const require = await proxyWith("sslmode=require", upstreamHost, upstreamPort);
    const refused = new pg.Client({ host: upstreamHost, port: require.address.port, user: upstreamUser });
    if (sslOn === "off") {
      await expect(refused.connect()).rejects.toMatchObject({
        code: "08006",
        message: expect.stringContaining("does not support SSL, but sslmode=require"),
      });
    } else {
      await refused.connect();
      await refused.end();
    }
  });

  it("refuses bytes a server sends after its S (CVE-2021-23222) and an S with no server behind it", async () => {
    let received = 0;
    const fake: Server = createServer((socket) => {
      socket.on("data", (chunk) => {
        received += chunk.length;
        socket.write(Buffer.from("Sinjected", "latin1"));
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const port = (fake.address() as { port: number }).port;
      const proxy = await proxyWith("sslmode=require", "127.0.0.1", port);
      const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user: "postgres" });
      await expect(client.connect()).rejects.toMatchObject({
        code: "08006",
        message: expect.stringContaining("unencrypted data after its SSL answer"),
      });
      expect(received).toBe(8); // the SSLRequest only: the StartupMessage never left the proxy
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});
