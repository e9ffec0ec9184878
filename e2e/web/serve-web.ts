/**
 * Playwright's web server for the chat e2e test: creates the run's throwaway database, loads nlq's demo
 * data, builds the Next.js app (skip with NLQ_E2E_SKIP_BUILD=1) and runs `next start` on NLQ_E2E_WEB_PORT
 * with the scripted demo model. SIGTERM stops the app and drops the database.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDemoData } from "@nlq/demo";
import { databaseUrl, dropE2eDatabase, e2eDatabaseName, runAdmin } from "./e2e-database";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const webDirectory = path.join(repositoryRoot, "apps", "web");
const nextBin = path.join(repositoryRoot, "node_modules", "next", "dist", "bin", "next");
const port = process.env.NLQ_E2E_WEB_PORT ?? "3100";
const database = e2eDatabaseName();

let app: ChildProcess | undefined;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    app?.kill("SIGTERM");
    await dropE2eDatabase().catch((error: unknown) => console.error("serve-web: cannot drop", database, error));
  }
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

await runAdmin(`CREATE DATABASE ${database}`);
try {
  const loaded = await loadDemoData({ url: databaseUrl(database) });
  console.log(`serve-web: loaded ${loaded.totalRows} demo rows into ${database}`);
  if (process.env.NLQ_E2E_SKIP_BUILD !== "1") {
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: webDirectory, stdio: "inherit" });
    if (build.status !== 0) throw new Error(`next build failed with status ${build.status}`);
  }
} catch (error) {
  console.error("serve-web:", error);
  await stop(1);
}

app = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", port], {
  cwd: webDirectory,
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl(database),
    NLQ_MODEL: `scripted:${path.join(repositoryRoot, "fixtures", "demo-model.json")}`,
  },
});
app.on("exit", (code) => void stop(code ?? 1));
