/**
 * Playwright's web server in launcher mode: builds the web app (skip with NLQ_E2E_SKIP_BUILD=1; the launcher
 * itself only builds when no build exists) and runs the full `nlq start` (embedded PostgreSQL with the demo and
 * metadata databases, proxy, web app) with the scripted demo model in a temporary NLQ_HOME, removed on SIGTERM.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eSuperuserPassword } from "./e2e-database";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const nextBin = path.join(repositoryRoot, "node_modules", "next", "dist", "bin", "next");
const home = mkdtempSync(path.join(tmpdir(), "nlq-e2e-home-"));
// A known superuser password (nlq start uses an existing password file rather than generating one).
mkdirSync(path.join(home, ".nlq"), { recursive: true });
writeFileSync(path.join(home, ".nlq", "postgres.pgpass"), `127.0.0.1:*:*:postgres:${e2eSuperuserPassword}\n`, {
  mode: 0o600,
});

if (process.env.NLQ_E2E_SKIP_BUILD !== "1") {
  const build = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: path.join(repositoryRoot, "apps", "web"),
    stdio: "inherit",
  });
  if (build.status !== 0) {
    rmSync(home, { recursive: true, force: true });
    console.error(`serve-launcher: next build failed with status ${build.status}`);
    process.exit(1);
  }
}

const launcher = spawn(process.execPath, [path.join(repositoryRoot, "apps", "cli", "bin", "nlq.mjs"), "start"], {
  cwd: repositoryRoot,
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: "",
    NLQ_METADATA_URL: "",
    NLQ_HOME: home,
    NLQ_MODEL: "scripted:fixtures/demo-model.json",
    // The tests sign in as database roles.
    NLQ_WEB_SINGLE_USER: "off",
    NLQ_WEB_PORT: process.env.NLQ_E2E_WEB_PORT ?? "3100",
    NLQ_PROXY_PORT: process.env.NLQ_E2E_PROXY_PORT ?? "6500",
    // Below Linux's ephemeral range (32768–60999): a fixed port inside it can be held for a moment by any outgoing
    // connection on the machine (the test suite makes thousands), and the launcher then refuses to start.
    NLQ_EMBEDDED_PORT: process.env.NLQ_E2E_EMBEDDED_PORT ?? "25400",
  },
});

function cleanUpAndExit(code: number): void {
  rmSync(home, { recursive: true, force: true });
  process.exit(code);
}

launcher.on("exit", (code) => cleanUpAndExit(code ?? 1));
const forward = (signal: NodeJS.Signals) => {
  launcher.kill(signal);
  setTimeout(() => {
    launcher.kill("SIGKILL");
    cleanUpAndExit(1);
  }, 20_000).unref();
};
process.on("SIGTERM", () => forward("SIGTERM"));
process.on("SIGINT", () => forward("SIGINT"));
