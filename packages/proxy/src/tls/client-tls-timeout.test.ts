import { readFileSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import pg from "pg";
import { serialize } from "pg-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerWith,
  awaitProxyClose,
  connectionCountReaching,
  startTestProxy,
  upstreamDatabase,
  upstreamHost,
  upstreamUser,
} from "../server/proxy.test-helpers";
import type { ProxyServer } from "../server/proxy-server";
import { TLS_HANDSHAKE_RECORD } from "./accept-client-tls";
import { createTemporaryCertificates, type TemporaryCertificates } from "./temporary-certificates.test-helpers";

let certificates: TemporaryCertificates;
let proxy: ProxyServer;

beforeAll(async () => {
  certificates = createTemporaryCertificates("nlq-tls-timeout-");
  proxy = await startTestProxy((options) => answerWith(options, "select 1"), {
    clientTls: certificates.clientTls,
    // The login timeout stays far longer: only the handshake's can close these connections within the bound.
    tlsHandshakeTimeoutMilliseconds: 300,
    clientLoginTimeoutMilliseconds: 60_000,
  });
});

afterAll(async () => {
  await proxy?.close();
  certificates?.remove();
});

describe("TLS handshake timeout (NLQ_TLS_HANDSHAKE_TIMEOUT_MS)", () => {
  it("closes a client that stalls after its SSLRequest is answered S, freeing its connection slot", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const closed = awaitProxyClose(socket);
    socket.write(serialize.requestSsl());
    const { bytes, closedByProxy } = await closed;
    expect(closedByProxy).toBe(true);
    expect(bytes.toString("latin1")).toBe("S");
    expect(await connectionCountReaching(proxy, 0)).toBe(0);
  });

  it("closes a client that sends the start of a ClientHello (direct negotiation) and stalls", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const closed = awaitProxyClose(socket);
    // A TLS record header announcing a 512-byte handshake record, and nothing more.
    socket.write(Buffer.from([TLS_HANDSHAKE_RECORD, 0x03, 0x01, 0x02, 0x00]));
    const { bytes, closedByProxy } = await closed;
    expect(closedByProxy).toBe(true);
    expect(bytes).toHaveLength(0);
    expect(await connectionCountReaching(proxy, 0)).toBe(0);
  });

  it("still serves clients that complete the handshake", async () => {
    const client = new pg.Client({
      host: "localhost",
      port: proxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
      ssl: { ca: readFileSync(certificates.caFile), servername: "localhost" },
    });
    await client.connect();
    try {
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
