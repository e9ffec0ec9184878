import { readFileSync } from "node:fs";
import { connect as connectTcp, type Socket } from "node:net";
import path from "node:path";
import { connect as connectTls } from "node:tls";
import { ConfigurationError } from "@nlq/engine";
import pg from "pg";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCancelRequest } from "../protocol/frontend-messages";
import {
  answerWith,
  backendsGone,
  backendsNamed,
  startTestProxy,
  uniqueName,
  upstreamDatabase,
  upstreamHost,
  upstreamUser,
} from "../server/proxy.test-helpers";
import type { ProxyServer } from "../server/proxy-server";
import { createTemporaryCertificates, type TemporaryCertificates } from "./temporary-certificates.test-helpers";

let certificates: TemporaryCertificates;
let proxy: ProxyServer;
let requiredProxy: ProxyServer;

beforeAll(async () => {
  certificates = createTemporaryCertificates("nlq-client-tls-");
  const clientTls = certificates.clientTls;
  proxy = await startTestProxy((options) => answerWith(options, "select 'answered' as answer"), { clientTls });
  requiredProxy = await startTestProxy((options) => answerWith(options, "select 1"), {
    clientTls: { ...clientTls, required: true },
  });
});

afterAll(async () => {
  await proxy?.close();
  await requiredProxy?.close();
  certificates?.remove();
});

/** node-postgres through the proxy with TLS verified against the test CA (`verify-full` for `host`). */
function tlsClient(port: number, applicationName: string, host = "localhost"): pg.Client {
  return new pg.Client({
    host,
    port,
    user: upstreamUser,
    database: upstreamDatabase,
    application_name: applicationName,
    ssl: { ca: readFileSync(certificates.caFile), servername: host === "localhost" ? host : undefined },
  });
}

/** Bytes received on `socket` until it closes (or `timeoutMilliseconds` pass: a generous bound, not a measurement). */
function receiveUntilClosed(socket: Socket, timeoutMilliseconds = 10_000): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
    }, timeoutMilliseconds);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Backend messages in `bytes`, by name. */
function messageNames(bytes: Buffer): string[] {
  const names: string[] = [];
  new Parser().parse(bytes, (message) => names.push(message.name));
  return names;
}

describe("TLS toward clients", () => {
  it("answers SSLRequest with S, and ordinary SQL and questions run over the encrypted connection", async () => {
    const name = uniqueName("tls-ssl-request");
    const client = tlsClient(proxy.address.port, name);
    await client.connect();
    try {
      const stream = (client as unknown as { connection: { stream: { encrypted?: boolean; getProtocol(): string } } })
        .connection.stream;
      expect(stream.encrypted).toBe(true);
      expect(stream.getProtocol()).toMatch(/^TLSv1\.[23]$/);
      expect((await client.query("select 40 + 2 as answer")).rows).toEqual([{ answer: 42 }]);
      expect((await client.query("/* nl: anything */")).rows).toEqual([{ answer: "answered" }]);
      expect(await backendsNamed(name)).toBe(1);
    } finally {
      await client.end();
    }
  });

  it("refuses a certificate the client does not trust and a host name the certificate does not name", async () => {
    const untrusted = new pg.Client({
      host: "localhost",
      port: proxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
      ssl: { ca: readFileSync(certificates.otherCaFile) },
    });
    await expect(untrusted.connect()).rejects.toThrow(/certificate/);
    const otherName = new pg.Client({
      host: upstreamHost,
      port: proxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
      ssl: { ca: readFileSync(certificates.caFile), servername: "db.example" },
    });
    await expect(otherName.connect()).rejects.toThrow(/altnames|Hostname/);
  });

  it("accepts PostgreSQL 17's direct TLS negotiation (ClientHello first, ALPN postgresql)", async () => {
    const name = uniqueName("tls-direct");
    const socket = connectTls({
      host: upstreamHost,
      port: proxy.address.port,
      ca: readFileSync(certificates.caFile),
      ALPNProtocols: ["postgresql"],
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("secureConnect", resolve);
      socket.once("error", reject);
    });
    expect(socket.alpnProtocol).toBe("postgresql");
    const received = receiveUntilClosed(socket);
    socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: name }));
    socket.write(serialize.query("select 1"));
    socket.write(serialize.end());
    const names = messageNames(await received);
    expect(names).toContain("authenticationOk");
    expect(names).toContain("dataRow");
    expect(names.filter((message) => message === "readyForQuery")).toHaveLength(2);
  });

  it("closes a direct TLS connection that did not negotiate ALPN postgresql, before any startup", async () => {
    const name = uniqueName("tls-direct-no-alpn");
    const socket = connectTls({ host: upstreamHost, port: proxy.address.port, ca: readFileSync(certificates.caFile) });
    socket.on("error", () => {});
    const received = receiveUntilClosed(socket);
    socket.once("secureConnect", () =>
      socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: name })),
    );
    expect(messageNames(await received)).not.toContain("authenticationOk");
    expect(await backendsNamed(name)).toBe(0);
  });

  it("refuses plaintext sent after an SSLRequest before the handshake (buffer injection): closed, nothing upstream", async () => {
    const name = uniqueName("tls-injection");
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const received = receiveUntilClosed(socket);
    // One write: the SSLRequest and a StartupMessage an attacker placed behind it.
    socket.write(
      Buffer.concat([
        serialize.requestSsl(),
        serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: name }),
      ]),
    );
    const bytes = await received;
    expect(bytes[0]).not.toBe("S".charCodeAt(0));
    expect(bytes.toString("latin1")).toContain("received unencrypted data after SSL request");
    expect(bytes.toString("latin1")).toContain("08P01");
    expect(await backendsGone(name, 2_000)).toBe(true);
  });

  it("closes the connection when plaintext instead of a ClientHello follows the S", async () => {
    const name = uniqueName("tls-plaintext-after-s");
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const received = receiveUntilClosed(socket);
    socket.once("data", () =>
      socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase, application_name: name })),
    );
    socket.write(serialize.requestSsl());
    const bytes = await received;
    expect(bytes[0]).toBe("S".charCodeAt(0));
    expect(messageNames(bytes.subarray(1))).not.toContain("authenticationOk");
    expect(await backendsNamed(name)).toBe(0);
  });

  it("answers GSSENCRequest with N even with TLS configured, and the client goes on in plaintext", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const received = receiveUntilClosed(socket);
    const gssencRequest = Buffer.alloc(8);
    gssencRequest.writeInt32BE(8, 0);
    gssencRequest.writeInt32BE(80877104, 4);
    socket.once("data", () => {
      socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase }));
      socket.write(serialize.end());
    });
    socket.write(gssencRequest);
    const bytes = await received;
    expect(bytes[0]).toBe("N".charCodeAt(0));
    expect(messageNames(bytes.subarray(1))).toContain("readyForQuery");
  });

  it("with NLQ_TLS_REQUIRED refuses a plaintext login with 28000 and accepts TLS and plaintext cancels", async () => {
    const plaintext = new pg.Client({
      host: upstreamHost,
      port: requiredProxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
    });
    await expect(plaintext.connect()).rejects.toMatchObject({ code: "28000" });
    const client = tlsClient(requiredProxy.address.port, uniqueName("tls-required"));
    await client.connect();
    try {
      const { pid } = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!;
      const running = client.query("select pg_sleep(30)");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const key = client as unknown as { processID: number; secretKey: number };
      expect(key.processID).toBe(pid);
      const cancel = connectTcp({ host: upstreamHost, port: requiredProxy.address.port });
      cancel.on("error", () => {});
      cancel.end(encodeCancelRequest(key.processID, key.secretKey));
      await expect(running).rejects.toMatchObject({ code: "57014" });
    } finally {
      await client.end();
    }
  });

  it("refuses to start with a certificate file that cannot be read", async () => {
    await expect(
      startTestProxy((options) => answerWith(options, "select 1"), {
        clientTls: {
          certificateFile: path.join(certificates.directory, "missing.pem"),
          keyFile: certificates.keyFile,
          required: false,
        },
      }),
    ).rejects.toThrow(ConfigurationError);
    await expect(
      startTestProxy((options) => answerWith(options, "select 1"), {
        clientTls: { certificateFile: certificates.certificateFile, keyFile: certificates.caFile, required: false },
      }),
    ).rejects.toThrow(/not a PEM certificate and its key/);
  });
});
