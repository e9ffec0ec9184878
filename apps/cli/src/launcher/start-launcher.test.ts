import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MetadataStore, passwordFile } from "@nlq/adapters";
import { answerQuestion, loadSettings, type QueryLog } from "@nlq/engine";
import { silentLogger, startProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, queryOnce } from "./launcher.test-helpers";
import { resolveLauncherSettings } from "./launcher-settings";
import { type LauncherDependencies, startLauncher } from "./start-launcher";

// Stand-in for the `next` CLI: serves the environment it was started with as JSON.
const fakeNext = `
const http = require("node:http");
const [, , host, , port] = process.argv.slice(2);
http.createServer((request, response) => response.end(JSON.stringify(process.env))).listen(Number(port), host);
`;
const home = mkdtempSync(path.join(tmpdir(), "nlq-launcher-"));
const webDirectory = path.join(home, "web");
const nextBinary = path.join(home, "fake-next.cjs");
writeFileSync(nextBinary, fakeNext);
// A built app, so nothing is built.
mkdirSync(path.join(webDirectory, ".next"), { recursive: true });
writeFileSync(path.join(webDirectory, ".next", "BUILD_ID"), "fake");
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The embedded superuser's password, from the password file under `<home>/.nlq`. */
function embeddedPassword(nlqHome: string): string {
  return readFileSync(passwordFile(path.join(nlqHome, ".nlq", "postgres")), "utf8")
    .split("\n")[0]!
    .split(":")[4]!;
}

/** `url` (whose password the summary shows as ***) with the real password. */
function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

describe("startLauncher", () => {
  it("hands the proxy and web app one embedded PostgreSQL (demo and metadata databases), and closes everything", async () => {
    const lines: string[] = [];
    let proxyUpstream: { host: string; port: number; queryLog: QueryLog; metadataStore: MetadataStore } | undefined;
    let proxyClosed = false;
    let indexedDemo: { url: string; store: MetadataStore } | undefined;
    const dependencies: LauncherDependencies = {
      demoTableNames: ["customers"],
      loadDemoData: (url) => queryOnce(url, "create table customers (id int); insert into customers values (1), (2);"),
      startProxy: async (options) => {
        proxyUpstream = {
          host: options.upstreamHost,
          port: options.upstreamPort,
          queryLog: options.queryLog,
          metadataStore: options.metadataStore,
        };
        return {
          port: 6999,
          close: async () => {
            proxyClosed = true;
          },
        };
      },
      indexDemo: async (url, store) => {
        indexedDemo = { url, store };
        return { tables: 1, indexed: 1, seconds: 0.5 };
      },
      model: undefined,
      environment: { NLQ_HOME: home, NLQ_SOMETHING: "kept" },
      webDirectory,
      nextBinary,
      log: (line) => lines.push(line),
    };
    const webPort = await freePort();
    const settings = {
      ...resolveLauncherSettings({ NLQ_HOME: home }),
      embeddedPort: 0,
      proxyPort: 0,
      webPort,
    };
    const launcher = startLauncher(settings, dependencies);
    const summary = await launcher.ready;
    let stopped = false;
    try {
      expect(summary.database.embedded).toBe(true);
      expect(summary.proxy.port).toBe(6999);
      expect(lines.some((line) => line.includes("nlq is running."))).toBe(true);
      expect(proxyUpstream?.host).toBe("127.0.0.1");
      // The proxy gets the store itself (for the catalog index), the one its query log writes to.
      expect(proxyUpstream?.metadataStore.queryLog).toBe(proxyUpstream?.queryLog);
      // The demo is indexed into that store in the background once the proxy is up (issue 18, item 3).
      expect(indexedDemo?.store).toBe(proxyUpstream?.metadataStore);
      expect(new URL(indexedDemo?.url ?? "postgresql://x/none").pathname).toBe("/demo");
      expect(lines).toContain("demo indexed: 1 tables (1 (re)indexed) in 0.5 s");
      expect(summary.database.url).toBe(`postgresql://postgres:***@127.0.0.1:${proxyUpstream?.port}/demo`);
      expect(summary.metadata).toEqual({
        location: `postgresql://postgres:***@127.0.0.1:${proxyUpstream?.port}/nlq_metadata`,
        embedded: true,
      });
      // The generated password: in the password file, shown in the banner of this (the first) start only.
      const password = embeddedPassword(home);
      expect(summary.embeddedPassword).toEqual({
        file: passwordFile(path.join(home, ".nlq", "postgres")),
        generated: password,
      });
      // Once: in the banner (no progress line names the URL with its password).
      expect(lines.filter((line) => line.includes(password))).toHaveLength(1);
      expect(lines.find((line) => line.includes(password))).toContain("nlq is running.");
      expect(lines.some((line) => line.includes(`PGPASSFILE=${summary.embeddedPassword?.file} psql`))).toBe(true);

      const webEnvironment = (await (await fetch(`http://127.0.0.1:${webPort}`)).json()) as Record<string, string>;
      expect(webEnvironment.DATABASE_URL).toBe(withPassword(summary.database.url, password));
      expect(webEnvironment.NLQ_METADATA_URL).toBe(withPassword(summary.metadata.location, password));
      expect(webEnvironment.NLQ_SOMETHING).toBe("kept");
      expect(webEnvironment.NLQ_HOME).toBe(home);
      // The launcher's store signs the LLM cache with the home's key, which the web app (same NLQ_HOME) reads too.
      expect(existsSync(path.join(home, ".nlq", "llm-cache.key"))).toBe(true);
      expect(path.basename(webEnvironment.NLQ_MIGRATIONS_DIR ?? "")).toBe("migrations");
      // Every local user can reach 127.0.0.1: the web app asks for a sign-in (postgres with the password).
      expect(webEnvironment.NLQ_WEB_SINGLE_USER).toBeUndefined();

      // The web app's URLs lead to the right stores.
      expect(
        (await queryOnce(webEnvironment.DATABASE_URL!, "select count(*)::int as n from customers")).rows[0].n,
      ).toBe(2);
      await proxyUpstream?.queryLog.record({
        question: "from the proxy",
        sql: null,
        ok: false,
        confidence: null,
        rows: null,
        model: null,
        scripted: false,
        candidates: [],
        calls: [],
        elapsedMilliseconds: 1,
        origin: "proxy",
      });
      const logged = await queryOnce(webEnvironment.NLQ_METADATA_URL!, "select question from query_log");
      expect(logged.rows).toEqual([{ question: "from the proxy" }]);

      await launcher.stop();
      stopped = true;
      expect(proxyClosed).toBe(true);
      await expect(fetch(`http://127.0.0.1:${webPort}`)).rejects.toThrow();
      await expect(queryOnce(webEnvironment.DATABASE_URL!, "select 1")).rejects.toThrow();
    } finally {
      if (!stopped) await launcher.stop();
    }

    // Everything was written: a second start finds the data and does not load it again.
    const linesAgain: string[] = [];
    const again = startLauncher({ ...settings, web: false }, { ...dependencies, log: (line) => linesAgain.push(line) });
    const summaryAgain = await again.ready;
    try {
      expect(summaryAgain.database.loadedDemoData).toBe(false);
      // The same password, not shown again.
      expect(summaryAgain.embeddedPassword?.generated).toBeUndefined();
      expect(linesAgain.some((line) => line.includes(embeddedPassword(home)))).toBe(false);
      // The query log written before the restart is still there.
      const kept = await queryOnce(
        withPassword(summaryAgain.metadata.location, embeddedPassword(home)),
        "select question from query_log",
      );
      expect(kept.rows).toEqual([{ question: "from the proxy" }]);
    } finally {
      await again.stop();
    }
  }, 120_000);
});

describe("the proxy in front of the embedded PostgreSQL", () => {
  it("gives every client its own session, honours the database name, and cancels with CancelRequest", async () => {
    const sessionHome = mkdtempSync(path.join(tmpdir(), "nlq-launcher-sessions-"));
    const launcher = startLauncher(
      { ...resolveLauncherSettings({ NLQ_HOME: sessionHome }), embeddedPort: 0, proxyPort: 0, web: false },
      {
        demoTableNames: ["customers"],
        loadDemoData: (url) => queryOnce(url, "create table customers (id int); insert into customers values (1);"),
        startProxy: async (options) => {
          const server = await startProxyServer({
            listenHost: options.host,
            listenPort: options.port,
            upstreamHost: options.upstreamHost,
            upstreamPort: options.upstreamPort,
            answerQuestion,
            settings: loadSettings({}),
            logger: silentLogger,
          });
          return { port: server.address.port, close: () => server.close() };
        },
        model: undefined,
        environment: { NLQ_HOME: sessionHome },
        webDirectory,
        nextBinary,
        log: () => {},
      },
    );
    const clients: pg.Client[] = [];
    try {
      const summary = await launcher.ready;
      // Through the proxy, as straight to the server: no password, or a wrong one, is refused.
      const refused = new pg.Client({ host: "127.0.0.1", port: summary.proxy.port, user: "postgres", password: "x" });
      refused.on("error", () => {});
      await expect(refused.connect()).rejects.toMatchObject({ code: "28P01" });
      const password = embeddedPassword(sessionHome);
      const connect = async (database: string) => {
        const client = new pg.Client({
          host: "127.0.0.1",
          port: summary.proxy.port,
          user: "postgres",
          password,
          database,
        });
        client.on("error", () => {});
        clients.push(client);
        await client.connect();
        return client;
      };
      const [first, second] = [await connect("demo"), await connect("demo")];
      await first.query("set application_name = 'first session'");
      await second.query("set application_name = 'second session'");
      expect((await first.query("show application_name")).rows).toEqual([{ application_name: "first session" }]);
      expect((await second.query("show application_name")).rows).toEqual([{ application_name: "second session" }]);
      const backends = await Promise.all(
        [first, second].map((client) => client.query("select pg_backend_pid() as pid")),
      );
      expect(backends[0]?.rows[0].pid).not.toBe(backends[1]?.rows[0].pid);

      // The requested database is the one connected to: the demo table is in `demo`, not in `postgres`.
      expect((await first.query("select current_database() as name")).rows).toEqual([{ name: "demo" }]);
      const maintenance = await connect("postgres");
      expect((await maintenance.query("select current_database() as name")).rows).toEqual([{ name: "postgres" }]);
      await expect(maintenance.query("select * from customers")).rejects.toMatchObject({ code: "42P01" });

      // node-postgres has no cancel API: send what psql's Ctrl-C sends, a CancelRequest with the session's key,
      // through a fresh pg.Connection to the proxy. The 30 s sleep ends with query_canceled well before the
      // test's own timeout.
      const sleeping = first.query("select pg_sleep(30)");
      const key = first as unknown as { processID: number; secretKey: number };
      await waitUntilActive(maintenance, backends[0]?.rows[0].pid as number);
      await sendCancel(summary.proxy.port, key.processID, key.secretKey);
      await expect(sleeping).rejects.toMatchObject({ code: "57014" });
      expect((await first.query("select 1 as still_usable")).rows).toEqual([{ still_usable: 1 }]);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await launcher.stop();
      rmSync(sessionHome, { recursive: true, force: true });
    }
  }, 120_000);
});

/** Waits until the backend runs a statement (so the cancel cannot arrive before the sleep starts). */
async function waitUntilActive(observer: pg.Client, backendProcessId: number): Promise<void> {
  for (;;) {
    const result = await observer.query("select state from pg_stat_activity where pid = $1", [backendProcessId]);
    if (result.rows[0]?.state === "active") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A CancelRequest (code 80877102) on a new connection to `port`, as libpq sends it. */
async function sendCancel(port: number, processId: number, secretKey: number): Promise<void> {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80_877_102, 4);
  message.writeInt32BE(processId, 8);
  message.writeInt32BE(secretKey, 12);
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.once("connect", () => socket.end(message, () => resolve()));
  });
  await new Promise((resolve) => socket.once("close", resolve));
}

describe("startLauncher's web build", () => {
  it("runs beside the rest: the proxy is ready (and says so) while the web app is still building", async () => {
    const buildHome = mkdtempSync(path.join(tmpdir(), "nlq-launcher-build-"));
    const unbuiltWeb = path.join(buildHome, "web");
    mkdirSync(unbuiltWeb, { recursive: true });
    const release = path.join(buildHome, "release");
    // `next build` stand-in: finishes only once the proxy has started (the test's startProxy creates `release`).
    const slowNext = path.join(buildHome, "slow-next.cjs");
    writeFileSync(
      slowNext,
      `const fs = require("node:fs"), path = require("node:path"), http = require("node:http");
const [command, , host, , port] = process.argv.slice(2);
if (command === "build") {
  const timer = setInterval(() => {
    if (!fs.existsSync(${JSON.stringify(release)})) return;
    clearInterval(timer);
    fs.mkdirSync(".next", { recursive: true });
    fs.writeFileSync(path.join(".next", "BUILD_ID"), "built");
  }, 50);
} else http.createServer((request, response) => response.end("{}")).listen(Number(port), host);
`,
    );
    const lines: string[] = [];
    const launcher = startLauncher(
      {
        ...resolveLauncherSettings({ NLQ_HOME: buildHome }),
        embeddedPort: 0,
        proxyPort: 0,
        webPort: await freePort(),
      },
      {
        demoTableNames: ["customers"],
        loadDemoData: (url) => queryOnce(url, "create table customers (id int)"),
        startProxy: async () => {
          writeFileSync(release, "");
          return { port: 6998, close: async () => undefined };
        },
        model: undefined,
        environment: { NLQ_HOME: buildHome },
        webDirectory: unbuiltWeb,
        nextBinary: slowNext,
        log: (line) => lines.push(line),
      },
    );
    try {
      await launcher.ready;
      const index = (start: string) => lines.findIndex((line) => line.startsWith(start));
      const proxyReady = "the proxy is ready: PGPASSFILE=";
      expect(index("building the web app in the background")).toBeGreaterThanOrEqual(0);
      expect(index("building the web app in the background")).toBeLessThan(index("opening the metadata store"));
      expect(index(proxyReady)).toBeGreaterThan(index("opening the metadata store"));
      expect(index("web app built in")).toBeGreaterThan(index(proxyReady));
      expect(lines[index(proxyReady)]).toContain("(the web app is still starting)");
    } finally {
      await launcher.stop();
      rmSync(buildHome, { recursive: true, force: true });
    }
  });
});
