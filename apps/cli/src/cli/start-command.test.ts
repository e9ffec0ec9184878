import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openMetadataStore, passwordFile } from "@nlq/adapters";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, queryOnce } from "../launcher/launcher.test-helpers";
import { killSpawnedNlqProcesses, type NlqProcess, spawnNlq } from "./nlq-process.test-helpers";

const home = mkdtempSync(path.join(tmpdir(), "nlq-start-"));

afterAll(() => {
  killSpawnedNlqProcesses();
  rmSync(home, { recursive: true, force: true });
});

type StartedProcess = NlqProcess;

function startNlq(environment: Record<string, string>, commandArguments = ["start", "--no-web"]): StartedProcess {
  return spawnNlq(commandArguments, {
    NLQ_HOME: home,
    DATABASE_URL: "",
    NLQ_METADATA_URL: "",
    NLQ_MODEL: "",
    ...environment,
  });
}

async function until(started: StartedProcess, text: string, timeoutMilliseconds = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  let exitCode: number | null | undefined;
  void started.exited.then((code) => {
    exitCode = code;
  });
  while (!started.output().includes(text)) {
    if (exitCode !== undefined) throw new Error(`nlq exited with ${exitCode} before "${text}":\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${text}" within ${timeoutMilliseconds} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The generated superuser password, from the password file the banner names. */
const embeddedPassword = () =>
  readFileSync(passwordFile(path.join(home, ".nlq", "postgres")), "utf8")
    .split("\n")[0]!
    .split(":")[4]!;

const queryThroughProxy = (port: number, text: string) =>
  queryOnce({ host: "127.0.0.1", port, user: "postgres", password: embeddedPassword(), database: "demo" }, text);

describe("nlq start", () => {
  it("serves the demo database through the proxy, stops cleanly on SIGINT and keeps everything across restarts", async () => {
    const ports = { NLQ_PROXY_PORT: String(await freePort()), NLQ_EMBEDDED_PORT: String(await freePort()) };

    const first = startNlq(ports);
    await until(first, "nlq is running.");
    expect(first.output()).toContain("loading the demo database");
    expect(first.output()).toContain(
      `PGPASSFILE=${passwordFile(path.join(home, ".nlq", "postgres"))} psql "postgresql://postgres@127.0.0.1:${ports.NLQ_PROXY_PORT}/demo"`,
    );
    expect(first.output()).toContain(`generated now and shown only this once: ${embeddedPassword()}`);
    expect(first.output()).toContain("NLQ_MODEL=scripted:fixtures/demo-model.json");
    const counted = await queryThroughProxy(
      Number(ports.NLQ_PROXY_PORT),
      "select count(*)::int as customers from customers",
    );
    const customers = counted.rows[0].customers as number;
    expect(customers).toBeGreaterThan(0);
    // No model is configured: the question fails, and the failure lands in the query log.
    await expect(
      queryThroughProxy(Number(ports.NLQ_PROXY_PORT), "/* nl: how many customers are there? */;"),
    ).rejects.toThrow();

    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("nlq stopped.");

    const second = startNlq(ports);
    await until(second, "nlq is running.");
    expect(second.output()).not.toContain("loading the demo database");
    const recounted = await queryThroughProxy(
      Number(ports.NLQ_PROXY_PORT),
      "select count(*)::int as customers from customers",
    );
    expect(recounted.rows[0].customers).toBe(customers);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const store = await openMetadataStore({ settings: { home } });
    try {
      const [logged] = await store.queryLog.recentQueries(5);
      expect(logged).toMatchObject({ question: "how many customers are there?", ok: false, origin: "proxy" });
    } finally {
      await store.close();
    }
  }, 400_000);

  it("a second SIGINT forces the exit while the first is still waiting for connections to finish", async () => {
    const ports = { NLQ_PROXY_PORT: String(await freePort()), NLQ_EMBEDDED_PORT: String(await freePort()) };
    const started = startNlq(ports);
    await until(started, "nlq is running.");
    // A statement still running keeps the proxy's graceful close waiting (NLQ_SHUTDOWN_GRACE_MS, 10 s); idle
    // clients are closed at once. This client asks for 50 MB and stops reading, so the statement cannot finish.
    const client = new pg.Client({
      host: "127.0.0.1",
      port: Number(ports.NLQ_PROXY_PORT),
      user: "postgres",
      password: embeddedPassword(),
      database: "postgres",
    });
    client.on("error", () => {});
    await client.connect();
    client.query("select repeat('x', 1000000) from generate_series(1, 50)").catch(() => undefined);
    (client as unknown as { connection: { stream: net.Socket } }).connection.stream.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      started.child.kill("SIGINT");
      await until(started, "stopping (press Ctrl-C again to force)");
      started.child.kill("SIGINT");
      expect(await started.exited).toBe(130);
      expect(started.output()).toContain("SIGINT again: forcing exit.");
    } finally {
      (client as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
    }
  }, 300_000);

  it("names the variable to change when a port is taken, and starts nothing", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const takenPort = (blocker.address() as net.AddressInfo).port;
    try {
      const started = startNlq({ NLQ_PROXY_PORT: String(takenPort), NLQ_EMBEDDED_PORT: String(await freePort()) });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`port ${takenPort} on 127.0.0.1 (the proxy) is already in use`);
      expect(started.output()).toContain("set NLQ_PROXY_PORT to a free port");
      expect(started.output()).not.toContain("loading the demo database");
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);
});
