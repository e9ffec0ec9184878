import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { createTestDatabase } from "@nlq/adapters/testing";
import { encodeReadyForQuery, type ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { serialize } from "pg-protocol";
import type { BackendMessage } from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answerer, runSqlAnswerer, startTestProxy, upstreamHost, upstreamUser } from "./proxy-fixture";

type Message = BackendMessage & Record<string, unknown>;

/** For proxies whose tests never ask a question. */
const unusedAnswerer: Answerer = async () => {
  throw new Error("unused");
};

/** A bare protocol client: writes raw bytes, collects parsed backend messages. */
class RawClient {
  readonly messages: Message[] = [];
  readonly #socket: Socket;
  readonly #parser = new Parser();
  #waiters: Array<() => void> = [];

  constructor(port: number) {
    this.#socket = connect({ host: upstreamHost, port });
    this.#socket.on("data", (chunk: Buffer) => {
      this.#parser.parse(chunk, (message) => this.messages.push(message as Message));
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  write(bytes: Buffer): void {
    this.#socket.write(bytes);
  }

  /** Writes bytes one at a time (every split offset on the client side). */
  async writeByteByByte(bytes: Buffer): Promise<void> {
    for (const byte of bytes) {
      this.#socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Waits until `arrived` holds for the messages received so far; throws after `timeoutMilliseconds`. */
  async waitFor(arrived: (messages: readonly Message[]) => boolean, what: string, timeoutMilliseconds = 10_000) {
    const deadline = Date.now() + timeoutMilliseconds;
    while (!arrived(this.messages)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async waitForReady(count: number): Promise<void> {
    await this.waitFor(
      (messages) => messages.filter((message) => message.name === "readyForQuery").length >= count,
      "ReadyForQuery",
    );
  }

  close(): void {
    this.#socket.end(serialize.end());
  }
}

describe("raw protocol through the proxy", () => {
  let proxy: ProxyServer;
  let database: { name: string; drop(): Promise<void> };
  /** How often the answerer (the model's stand-in) was asked. */
  let asked = 0;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_proxy_raw");
    const answer = runSqlAnswerer("select 'from question' as source");
    proxy = await startTestProxy((options) => {
      asked++;
      return answer(options);
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  async function connected(): Promise<RawClient> {
    const client = new RawClient(proxy.address.port);
    client.write(serialize.startup({ user: upstreamUser, database: database.name }));
    await client.waitForReady(1);
    client.messages.length = 0;
    return client;
  }

  it("keeps replies in order when a question is pipelined between ordinary queries", async () => {
    const client = await connected();
    client.write(
      Buffer.concat([
        serialize.query("select pg_sleep(0.2), 'first' as source"),
        serialize.query("/* nl: pipelined question */"),
        serialize.query("select 'last' as source"),
      ]),
    );
    await client.waitForReady(3);
    const rows = client.messages
      .filter((message) => message.name === "dataRow")
      .map((message) => (message.fields as string[]).at(-1));
    expect(rows).toEqual(["first", "from question", "last"]);
    expect(client.messages.filter((message) => message.name === "readyForQuery")).toHaveLength(3);
    client.close();
  });

  it("frames client messages split at every byte", async () => {
    const client = await connected();
    await client.writeByteByByte(
      Buffer.concat([
        serialize.query("select 1 as one"),
        serialize.parse({ text: "select $1::text as echo" }),
        serialize.bind({ values: ["split"] }),
        serialize.describe({ type: "P" }),
        serialize.execute(),
        serialize.sync(),
        serialize.query("/* nl: split question */;"),
      ]),
    );
    await client.waitForReady(3);
    const rows = client.messages.filter((message) => message.name === "dataRow").map((message) => message.fields);
    expect(rows).toEqual([["1"], ["split"], ["from question"]]);
    client.close();
  });

  it("reports a question in a Parse after earlier extended messages of the same batch", async () => {
    const client = await connected();
    client.write(
      Buffer.concat([
        serialize.parse({ text: "select 1", name: "ok" }),
        serialize.parse({ text: "/* nl: in a batch */" }),
        serialize.bind({}),
        serialize.execute(),
        serialize.sync(),
        serialize.query("select 'after' as source"),
      ]),
    );
    await client.waitForReady(2);
    expect(client.messages.map((message) => message.name)).toEqual([
      "parseComplete",
      "error",
      "readyForQuery",
      "rowDescription",
      "dataRow",
      "commandComplete",
      "readyForQuery",
    ]);
    expect(client.messages[1]).toMatchObject({ code: "0A000" });
    client.close();
  });

  it("answers a question in an extended-protocol batch as PostgreSQL would answer its SQL", async () => {
    const client = await connected();
    const askedBefore = asked;
    client.write(
      Buffer.concat([
        serialize.parse({ text: "/* nl: extended */", name: "asked" }),
        serialize.describe({ type: "S", name: "asked" }),
        serialize.sync(),
        serialize.bind({ statement: "asked" }),
        serialize.describe({ type: "P" }),
        serialize.execute(),
        serialize.close({ type: "P" }),
        serialize.sync(),
      ]),
    );
    await client.waitForReady(2);
    expect(client.messages.map((message) => message.name)).toEqual([
      "notice",
      "parseComplete",
      "parameterDescription",
      "rowDescription",
      "readyForQuery",
      "notice",
      "bindComplete",
      "rowDescription",
      "dataRow",
      "commandComplete",
      "closeComplete",
      "readyForQuery",
    ]);
    expect(client.messages[8]).toMatchObject({ fields: ["from question"] });
    // Generated once, at the Parse batch: the Bind batch re-ran that SQL, described with the same columns.
    expect(asked - askedBefore).toBe(1);
    expect(client.messages[7]).toEqual(client.messages[3]);
    client.close();
  });

  it("answers an extended-protocol question right after COPY FROM STDIN", async () => {
    const client = await connected();
    client.write(serialize.query("create temp table copied (a int)"));
    await client.waitForReady(1);
    client.write(serialize.query("copy copied from stdin"));
    await client.waitFor((messages) => messages.some((message) => message.name === "copyInResponse"), "CopyInResponse");
    client.write(Buffer.concat([serialize.copyData(Buffer.from("1\n2\n")), serialize.copyDone()]));
    await client.waitForReady(2);
    client.messages.length = 0;
    client.write(
      Buffer.concat([
        serialize.parse({ text: "/* nl: after copy */" }),
        serialize.bind({}),
        serialize.execute(),
        serialize.sync(),
      ]),
    );
    await client.waitForReady(1);
    expect(client.messages.map((message) => message.name)).toEqual([
      "notice",
      "parseComplete",
      "bindComplete",
      "dataRow",
      "commandComplete",
      "readyForQuery",
    ]);
    client.close();
  });

  it("refuses SSLRequest with N and then accepts the startup message", async () => {
    const socket = connect({ host: upstreamHost, port: proxy.address.port });
    const first = await new Promise<Buffer>((resolve) => {
      socket.once("data", resolve);
      socket.write(serialize.requestSsl());
    });
    expect(first.toString()).toBe("N");
    const reply = await new Promise<Buffer>((resolve) => {
      socket.once("data", resolve);
      socket.write(serialize.startup({ user: upstreamUser, database: database.name }));
    });
    expect(reply[0]).toBe("R".charCodeAt(0));
    socket.destroy();
  });

  it("leaves authentication to client and upstream (password exchange passes through)", async () => {
    const passwords: string[] = [];
    // A minimal upstream that asks for a cleartext password, so the test sees what the proxy forwards.
    const fakeUpstream = createServer((socket) => {
      let startupSeen = false;
      socket.on("data", (chunk: Buffer) => {
        if (!startupSeen) {
          startupSeen = true;
          socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])); // AuthenticationCleartextPassword
          return;
        }
        if (chunk[0] === 0x70) {
          passwords.push(chunk.toString("utf8", 5, chunk.length - 1));
          socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0])); // AuthenticationOk
          socket.write(Buffer.from([0x4b, 0, 0, 0, 12, 0, 0, 0, 7, 0, 0, 0, 9])); // BackendKeyData
          socket.write(encodeReadyForQuery("I"));
        } else if (chunk[0] === 0x58) {
          socket.end();
        }
      });
    });
    await new Promise<void>((resolve) => fakeUpstream.listen(0, "127.0.0.1", resolve));
    const proxyServer = await startTestProxy(unusedAnswerer, {
      upstreamHost: "127.0.0.1",
      upstreamPort: (fakeUpstream.address() as AddressInfo).port,
      closeGraceMilliseconds: 100,
    });
    const client = new pg.Client({
      host: "127.0.0.1",
      port: proxyServer.address.port,
      user: "alice",
      password: "s3cret",
      database: "app",
    });
    await client.connect();
    expect(passwords).toEqual(["s3cret"]);
    expect((client as unknown as { processID: number }).processID).toBe(7);
    await client.end();
    await proxyServer.close();
    await new Promise((resolve) => fakeUpstream.close(resolve));
  });

  it("answers FATAL 08P01 to bytes that are not the PostgreSQL protocol", async () => {
    const client = new RawClient(proxy.address.port);
    client.write(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    await client.waitFor((messages) => messages.length > 0, "a first message");
    expect(client.messages[0]).toMatchObject({ name: "error", severity: "FATAL", code: "08P01" });
  });

  it("answers FATAL when the upstream cannot be reached", async () => {
    const broken = await startTestProxy(unusedAnswerer, { upstreamHost: "127.0.0.1", upstreamPort: 1 });
    const client = new RawClient(broken.address.port);
    client.write(serialize.startup({ user: upstreamUser, database: "postgres" }));
    await client.waitFor((messages) => messages.length > 0, "a first message");
    expect(client.messages[0]).toMatchObject({ name: "error", severity: "FATAL", code: "08006" });
    await broken.close();
  });
});
