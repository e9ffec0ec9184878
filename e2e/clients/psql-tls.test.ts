import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AuthTestServer,
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
 * Real clients against a proxy that terminates TLS (NLQ_TLS_CERT/NLQ_TLS_KEY), in front of a dedicated PostgreSQL
 * with ssl=on: psql with sslmode=require and verify-full, node-postgres with ssl, SCRAM across the proxy.
 */
let directory: string;
let certificates: TestCertificates;
let server: AuthTestServer;
/** Terminates client TLS; plaintext toward the server. */
let proxy: ProxyServer;
/** Terminates client TLS; TLS toward the server too (sslmode=verify-full). */
let tlsBothWays: ProxyServer;
/** As `tlsBothWays`, but presenting the server's own certificate and key to clients. */
let sameCertificate: ProxyServer;
/** The server's certificates: another CA than the proxy's. */
let serverCertificates: TestCertificates;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "nlq-psql-tls-"));
  certificates = createTestCertificates(directory);
  const serverDirectory = path.join(directory, "server");
  mkdirSync(serverDirectory);
  serverCertificates = createTestCertificates(serverDirectory);
  server = await startAuthTestServer(serverCertificates);
  const clientTls = { certificateFile: certificates.certificateFile, keyFile: certificates.keyFile, required: true };
  const answerer = runSqlAnswerer("select current_user::text as who");
  proxy = await startTestProxy(answerer, { upstreamHost: server.host, upstreamPort: server.port, clientTls });
  const upstreamTls = upstreamTlsFromUrl(
    new URL(
      `postgresql://${server.host}/?sslmode=verify-full&sslrootcert=${encodeURIComponent(serverCertificates.caFile)}`,
    ),
  );
  tlsBothWays = await startTestProxy(answerer, {
    upstreamHost: server.host,
    upstreamPort: server.port,
    clientTls,
    upstreamTls,
  });
  sameCertificate = await startTestProxy(answerer, {
    upstreamHost: server.host,
    upstreamPort: server.port,
    clientTls: {
      ...clientTls,
      certificateFile: serverCertificates.certificateFile,
      keyFile: serverCertificates.keyFile,
    },
    upstreamTls,
  });
});

afterAll(async () => {
  await proxy?.close();
  await tlsBothWays?.close();
  await sameCertificate?.close();
  await server?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const { scram } = authTestRoles;

function connection(target: ProxyServer, host: string, options: string): string {
  return `postgresql://${scram.name}@${host}:${target.address.port}/postgres?${options}`;
}

describe("psql through a TLS-terminating proxy", () => {
  it("connects with sslmode=require: psql reports TLS, SQL and questions run", async () => {
    const run = await psqlWith(
      connection(proxy, "127.0.0.1", "sslmode=require"),
      ["\\conninfo", "select current_user", "/* nl: who am i? */"],
      scram.password,
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/SSL connection \(protocol: TLSv1\.3/);
    expect(run.stdout).toContain(`${scram.name}\n${scram.name}\n`);
  });

  it("connects with sslmode=verify-full to localhost and 127.0.0.1 (the certificate names both)", async () => {
    const rootCertificate = `sslrootcert=${encodeURIComponent(certificates.caFile)}`;
    for (const host of ["localhost", "127.0.0.1"]) {
      const run = await psqlWith(
        connection(proxy, host, `sslmode=verify-full&${rootCertificate}`),
        ["select 'verified'"],
        scram.password,
      );
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe("verified");
    }
  });

  it("refuses with verify-full when the proxy's certificate is not from the client's CA", async () => {
    const run = await psqlWith(
      connection(proxy, "localhost", `sslmode=verify-full&sslrootcert=${encodeURIComponent(certificates.otherCaFile)}`),
      ["select 1"],
      scram.password,
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("certificate verify failed");
  });

  it("refuses sslmode=disable with 28000 when TLS is required", async () => {
    const run = await psqlWith(connection(proxy, "127.0.0.1", "sslmode=disable"), ["select 1"], scram.password);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("accepts only encrypted connections");
  });

  it("TLS on both sides: the upstream session is encrypted too", async () => {
    const run = await psqlWith(
      connection(tlsBothWays, "localhost", "sslmode=require&channel_binding=disable"),
      ["select ssl from pg_stat_ssl where pid = pg_backend_pid()"],
      scram.password,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("t");
  });
});

describe("SCRAM channel binding across a TLS-terminating proxy (pass-through: what works, what cannot)", () => {
  it("plaintext upstream: the server offers no -PLUS, so SCRAM-SHA-256 works and channel_binding=require fails", async () => {
    const prefer = await psqlWith(connection(proxy, "localhost", "sslmode=require"), ["select 1"], scram.password);
    expect(prefer.stdout.trim()).toBe("1");
    const required = await psqlWith(
      connection(proxy, "localhost", "sslmode=require&channel_binding=require"),
      ["select 1"],
      scram.password,
    );
    expect(required.exitCode).toBe(2);
    expect(required.stderr).toContain("channel binding");
  });

  it("TLS upstream: the server offers -PLUS bound to its own certificate, so a client that binds fails", async () => {
    const binding = await psqlWith(
      connection(tlsBothWays, "localhost", "sslmode=require"),
      ["select 1"],
      scram.password,
    );
    expect(binding.exitCode).toBe(2);
    expect(binding.stderr).toContain("SCRAM channel binding check failed");
    const withoutBinding = await psqlWith(
      connection(tlsBothWays, "localhost", "sslmode=require&channel_binding=disable"),
      ["select 1"],
      scram.password,
    );
    expect(withoutBinding.stdout.trim()).toBe("1");
  });

  it("TLS upstream, the proxy presenting the server's own certificate: channel binding (tls-server-end-point) holds", async () => {
    const run = await psqlWith(
      connection(sameCertificate, "localhost", "sslmode=require&channel_binding=require"),
      ["select 1"],
      scram.password,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("1");
  });
});

describe("node-postgres through a TLS-terminating proxy", () => {
  it("connects with ssl (CA verified) and SCRAM, and runs a query", async () => {
    const client = new pg.Client({
      host: "localhost",
      port: proxy.address.port,
      user: scram.name,
      password: scram.password,
      database: "postgres",
      ssl: { ca: readFileSync(certificates.caFile) },
    });
    await client.connect();
    try {
      expect((await client.query("select current_user as who")).rows).toEqual([{ who: scram.name }]);
    } finally {
      await client.end();
    }
  });
});
