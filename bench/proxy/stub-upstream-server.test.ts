import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StubUpstreamServer, startStubUpstreamProcess, startStubUpstreamServer } from "./stub-upstream-server";

describe("stub upstream server", () => {
  let stub: StubUpstreamServer;
  beforeAll(async () => {
    stub = await startStubUpstreamServer();
  });
  afterAll(() => stub.close());

  it("lets a real client start a session, run a simple query and close", async () => {
    const client = new pg.Client({ host: "127.0.0.1", port: stub.port, user: "postgres", database: "postgres" });
    await client.connect();
    expect(stub.sessions).toBe(1);
    const result = await client.query("SELECT 1");
    expect(result.command).toBe("SELECT");
    expect(result.rows).toEqual([]);
    await client.end();
  });
});

describe("stub upstream process", () => {
  it("serves a real client from a child process and stops on close", async () => {
    const stub = await startStubUpstreamProcess();
    try {
      const client = new pg.Client({ host: "127.0.0.1", port: stub.port, user: "postgres", database: "postgres" });
      await client.connect();
      expect((await client.query("SELECT 1")).command).toBe("SELECT");
      await client.end();
    } finally {
      await stub.close();
    }
  });
});
