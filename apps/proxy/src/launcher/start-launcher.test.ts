import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MetadataStore, QueryLog } from "@nlq/core";
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

describe("startLauncher", () => {
  it("hands the web app the embedded database and the served metadata store, and closes everything", async () => {
    const lines: string[] = [];
    let proxyUpstream: { host: string; port: number; queryLog: QueryLog; metadataStore: MetadataStore } | undefined;
    let proxyClosed = false;
    const dependencies: LauncherDependencies = {
      demoTableNames: ["customers"],
      loadDemoData: (pglite) => pglite.exec("create table customers (id int); insert into customers values (1), (2);"),
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
      metadataPort: 0,
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
      expect(summary.database.url).toBe(`postgresql://postgres@127.0.0.1:${proxyUpstream?.port}/postgres`);

      const webEnvironment = (await (await fetch(`http://127.0.0.1:${webPort}`)).json()) as Record<string, string>;
      expect(webEnvironment.DATABASE_URL).toBe(summary.database.url);
      expect(webEnvironment.NLQ_METADATA_URL).toBe(summary.metadata.servedUrl);
      expect(webEnvironment.NLQ_SOMETHING).toBe("kept");
      expect(path.basename(webEnvironment.NLQ_MIGRATIONS_DIR ?? "")).toBe("migrations");

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
    const again = startLauncher({ ...settings, web: false }, { ...dependencies, log: () => {} });
    const summaryAgain = await again.ready;
    try {
      expect(summaryAgain.database.loadedDemoData).toBe(false);
      expect(summaryAgain.metadata.servedUrl).toBeUndefined();
    } finally {
      await again.stop();
    }
  }, 120_000);
});
