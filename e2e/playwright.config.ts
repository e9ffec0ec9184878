import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type ReporterDescription } from "@playwright/test";

/**
 * End-to-end tests of the web chat in Debian's chromium, with the scripted demo model. Two ways to serve it
 * (`NLQ_E2E_WEB_SERVER`):
 * - `launcher` (default): `e2e/web/serve-launcher.ts` runs the full `nlq start` (embedded PostgreSQL with demo
 *   data, metadata store, proxy, web app) in a temporary NLQ_HOME;
 * - `direct`: `e2e/web/serve-web.ts` loads the demo data into a throwaway database on the local PostgreSQL
 *   (`NLQ_TEST_DATABASE_URL`) and runs `next start` on it; `e2e/web/global-teardown.ts` drops the database.
 * Both build the web app first unless NLQ_E2E_SKIP_BUILD=1.
 */
const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));
/** Port of the web app under test (default 3100). */
const webPort = Number(process.env.NLQ_E2E_WEB_PORT ?? 3100);
/** `launcher` or `direct` (see above). */
const webServerMode = process.env.NLQ_E2E_WEB_SERVER === "direct" ? "direct" : "launcher";

// The config is evaluated by the runner and again by each worker: the name travels in the environment.
if (webServerMode === "direct") {
  process.env.NLQ_E2E_DATABASE ??= `nlq_e2e_web_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
}

const reporters: ReporterDescription[] = [["list"]];
if (process.env.NLQ_PLAYWRIGHT_JSON) reporters.push(["json", { outputFile: process.env.NLQ_PLAYWRIGHT_JSON }]);

export default defineConfig({
  testDir: ".",
  testMatch: ["web/**/*.spec.ts"],
  outputDir: path.join(repositoryRoot, "test-results"),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: reporters,
  ...(webServerMode === "direct" ? { globalTeardown: "./web/global-teardown.ts" } : {}),
  use: {
    baseURL: `http://127.0.0.1:${webPort}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: webServerMode === "launcher" ? "npx tsx e2e/web/serve-launcher.ts" : "npx tsx e2e/web/serve-web.ts",
    cwd: repositoryRoot,
    url: `http://127.0.0.1:${webPort}/`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 25_000 },
    env: { NLQ_E2E_WEB_PORT: String(webPort), NLQ_E2E_DATABASE: process.env.NLQ_E2E_DATABASE ?? "" },
  },
});
