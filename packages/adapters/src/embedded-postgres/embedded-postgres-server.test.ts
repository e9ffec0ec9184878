import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedPostgresInUseError } from "./embedded-postgres-error";
import { startEmbeddedPostgres } from "./embedded-postgres-server";
import { ensureDatabase } from "./ensure-database";
import { ownerFile, runningServer, writeOwner } from "./server-status";

const home = mkdtempSync(path.join(tmpdir(), "nlq-embedded-postgres-"));
const directory = path.join(home, ".nlq", "postgres");
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function scalar(url: string, text: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(text)).rows[0] ?? {})[0];
  } finally {
    await client.end();
  }
}

describe("startEmbeddedPostgres", () => {
  it("initialises once, attaches or refuses while it runs, restarts a leftover, and keeps data", async () => {
    const server = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", grantBelow: home });
    try {
      expect(server).toMatchObject({ owned: true, initialised: true });
      expect(await scalar(server.url("postgres"), "select current_setting('server_version_num')::int / 10000")).toBe(
        18,
      );
      expect(await ensureDatabase(server.url("postgres"), "kept")).toBe(true);
      expect(await ensureDatabase(server.url("postgres"), "kept")).toBe(false);
      await scalar(server.url("kept"), "create table marker as select 42 as answer");

      // Another live nlq process owns it: pretend to be one by naming our parent as the owner.
      writeOwner(directory, { processId: process.ppid, purpose: "another nlq", port: server.port });
      const attached = await startEmbeddedPostgres({ directory, port: 0, purpose: "test" });
      expect(attached).toMatchObject({ owned: false, port: server.port });
      await attached.stop();
      expect(await scalar(server.url("kept"), "select answer from marker")).toBe(42);
      await expect(
        startEmbeddedPostgres({ directory, port: 0, purpose: "test", whenRunning: "refuse" }),
      ).rejects.toBeInstanceOf(EmbeddedPostgresInUseError);

      // Its owner is gone (a crashed nlq): the leftover server is stopped and a fresh one started.
      rmSync(ownerFile(directory));
      const restarted = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", whenRunning: "refuse" });
      expect(restarted).toMatchObject({ owned: true, initialised: false });
      expect(await scalar(restarted.url("kept"), "select answer from marker")).toBe(42);
      await restarted.stop();
      expect(runningServer(directory)).toBeUndefined();
    } finally {
      await server.stop().catch(() => undefined);
    }
  }, 60_000);
});
