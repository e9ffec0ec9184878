import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSqlAnswerer, startTestProxy } from "./proxy-fixture";

/**
 * The proxy in front of the embedded PGlite served with pglite-socket (what `nlq start` runs without
 * DATABASE_URL). PGlite has one backend session shared by all socket connections, so this only checks
 * that real clients work through the proxy, not session semantics.
 */
describe("proxy in front of PGlite (pglite-socket)", () => {
  let pglite: PGlite;
  let socketServer: PGLiteSocketServer;
  let proxy: ProxyServer;

  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(
      "create table products (id int primary key, name text); insert into products values (1, 'tea'), (2, 'coffee')",
    );
    socketServer = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 4 });
    await socketServer.start();
    const upstreamPort = Number(socketServer.getServerConn().split(":").at(-1));
    proxy = await startTestProxy(runSqlAnswerer("select name from products order by id"), {
      upstreamHost: "127.0.0.1",
      upstreamPort,
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await socketServer?.stop();
    await pglite?.close();
  });

  it("passes SQL through and answers questions for node-postgres", async () => {
    const client = new pg.Client({
      host: "127.0.0.1",
      port: proxy.address.port,
      user: "postgres",
      database: "postgres",
    });
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      expect((await client.query("select count(*)::int as count from products")).rows).toEqual([{ count: 2 }]);
      expect((await client.query("select name from products where id = $1", [2])).rows).toEqual([{ name: "coffee" }]);
      await expect(client.query("select * from nothing_here")).rejects.toMatchObject({ code: "42P01" });
      const answer = await client.query("/* nl: which products? */;");
      expect(answer.rows).toEqual([{ name: "tea" }, { name: "coffee" }]);
      expect(notices).toEqual(["nlq: select name from products order by id"]);
    } finally {
      await client.end();
    }
  });

  it("works for psql -c", async () => {
    // asynchronous on purpose: the proxy runs in this process
    const run = await promisify(execFile)(
      "psql",
      [
        "-X",
        "-A",
        "-t",
        "-h",
        "127.0.0.1",
        "-p",
        String(proxy.address.port),
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-c",
        "-- nl: products please",
      ],
      { env: { ...process.env, PGSSLMODE: "prefer" }, timeout: 20_000 },
    );
    expect(run.stdout.trim().split("\n")).toEqual(["tea", "coffee"]);
  });
});
