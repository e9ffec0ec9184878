import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedPostgresInUseError } from "./embedded-postgres-error";
import { startEmbeddedPostgres } from "./embedded-postgres-server";
import { embeddedDatabaseUrl, ensureDatabase } from "./ensure-database";
import { embeddedHostBasedAuthentication } from "./server-authentication";
import { passwordFile } from "./server-password";
import { runningServer } from "./server-status";
import { registerUser, unregisterUser } from "./server-users";

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

/** The SQLSTATE a connection attempt fails with (undefined when it succeeds). */
async function connectionError(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).message);
  }
}

describe("startEmbeddedPostgres", () => {
  it("initialises once with a generated SCRAM password, joins or refuses while used, restarts a leftover", async () => {
    const server = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", grantBelow: home });
    try {
      expect(server).toMatchObject({ owned: true, initialised: true, password: { user: "postgres", created: true } });
      expect(statSync(passwordFile(directory)).mode & 0o777).toBe(0o600);
      expect(readFileSync(passwordFile(directory), "utf8")).toContain(
        `127.0.0.1:*:*:postgres:${server.password.password}`,
      );
      expect(readFileSync(path.join(directory, "pg_hba.conf"), "utf8")).toBe(embeddedHostBasedAuthentication);
      expect(await scalar(server.url("postgres"), "select current_setting('server_version_num')::int / 10000")).toBe(
        18,
      );
      // Any other password (a local user guessing, or none) is refused: no trust.
      expect(await connectionError(embeddedDatabaseUrl("127.0.0.1", server.port, "postgres", "wrong"))).toBe("28P01");
      expect(
        await scalar(
          server.url("postgres"),
          "select rolpassword like 'SCRAM-SHA-256$%' from pg_authid where rolname = 'postgres'",
        ),
      ).toBe(true);
      expect(await ensureDatabase(server.url("postgres"), "kept")).toBe(true);
      expect(await ensureDatabase(server.url("postgres"), "kept")).toBe(false);
      await scalar(server.url("kept"), "create table marker as select 42 as answer");

      // Another live nlq process uses it (our parent stands in for one): joined, or refused on request.
      registerUser(directory, "another nlq", process.ppid);
      const attached = await startEmbeddedPostgres({ directory, port: 0, purpose: "test" });
      expect(attached).toMatchObject({ owned: false, port: server.port, password: { created: false } });
      expect(attached.password.password).toBe(server.password.password);
      await attached.stop();
      await expect(
        startEmbeddedPostgres({ directory, port: 0, purpose: "test", whenRunning: "refuse" }),
      ).rejects.toBeInstanceOf(EmbeddedPostgresInUseError);
      // This process leaves; the other user still runs, so the server stays.
      await server.stop();
      expect(runningServer(directory)).toBeDefined();
      expect(await scalar(server.url("kept"), "select answer from marker")).toBe(42);

      // Its users are all gone (a crashed nlq): the leftover server is stopped and a fresh one started.
      unregisterUser(directory, process.ppid);
      const restarted = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", whenRunning: "refuse" });
      expect(restarted).toMatchObject({ owned: true, initialised: false, password: { created: false } });
      expect(await scalar(restarted.url("kept"), "select answer from marker")).toBe(42);
      await restarted.stop();
      expect(runningServer(directory)).toBeUndefined();
    } finally {
      unregisterUser(directory, process.ppid);
      await server.stop().catch(() => undefined);
    }
  }, 90_000);

  it("moves a data directory of an older nlq (trust, no password file) to SCRAM at the next start", async () => {
    const first = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", grantBelow: home });
    const oldPassword = first.password.password;
    await first.stop();
    // What an older nlq left: pg_hba.conf trusting 127.0.0.1, no password file.
    writeFileSync(path.join(directory, "pg_hba.conf"), "host all all 127.0.0.1/32 trust\n");
    rmSync(passwordFile(directory));
    const migrated = await startEmbeddedPostgres({ directory, port: 0, purpose: "test", grantBelow: home });
    try {
      expect(migrated).toMatchObject({ initialised: false, password: { created: true } });
      expect(migrated.password.password).not.toBe(oldPassword);
      expect(readFileSync(path.join(directory, "pg_hba.conf"), "utf8")).toBe(embeddedHostBasedAuthentication);
      expect(await scalar(migrated.url("kept"), "select answer from marker")).toBe(42);
      expect(await connectionError(embeddedDatabaseUrl("127.0.0.1", migrated.port, "kept", oldPassword))).toBe("28P01");
    } finally {
      await migrated.stop();
    }
  }, 90_000);
});
