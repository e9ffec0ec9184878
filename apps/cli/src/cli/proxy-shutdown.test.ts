import { testServerUrl } from "@nlq/adapters/testing";
import { backendsGone, backendsNamed, uniqueName, upstreamDatabase, upstreamUser } from "@nlq/proxy/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../launcher/launcher.test-helpers";
import { killSpawnedNlqProcesses, spawnNlq } from "./nlq-process.test-helpers";

afterAll(killSpawnedNlqProcesses);

/** Spawns `nlq proxy --no-metadata` on a free port; resolves once it listens. */
async function startProxyProcess(graceMilliseconds: number) {
  const port = await freePort();
  const { child, output, exited } = spawnNlq(["proxy", "--no-metadata", "--listen", `127.0.0.1:${port}`], {
    DATABASE_URL: testServerUrl,
    NLQ_MODEL: "",
    NLQ_SHUTDOWN_GRACE_MS: String(graceMilliseconds),
  });
  const deadline = Date.now() + 60_000;
  while (!output().includes("listening on")) {
    if (Date.now() > deadline) throw new Error(`nlq proxy did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, port, exited, output };
}

function clientThrough(port: number, applicationName: string): pg.Client {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: upstreamUser,
    database: upstreamDatabase,
    application_name: applicationName,
  });
  client.on("error", () => {});
  return client;
}

async function untilActive(name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await backendsNamed(name)) === 0) {
    if (Date.now() > deadline) throw new Error("the statement never started");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("nlq proxy on SIGTERM", () => {
  it("lets a statement finish within the grace period, closes idle clients and exits", async () => {
    const proxy = await startProxyProcess(20_000);
    const name = uniqueName("nlq-term-finish");
    const busy = clientThrough(proxy.port, name);
    const idle = clientThrough(proxy.port, `${name}-idle`);
    await busy.connect();
    await idle.connect();
    const idleError = new Promise<unknown>((resolve) => idle.on("error", resolve));
    const sleeping = busy.query("select pg_sleep(1) as slept");
    await untilActive(name);
    proxy.child.kill("SIGTERM");
    const result = await sleeping;
    expect(result.rows).toEqual([{ slept: "" }]);
    expect(await proxy.exited).toBe(0);
    expect(await idleError).toMatchObject({ code: "57P01" });
    expect(await backendsGone(name)).toBe(true);
    expect(await backendsGone(`${name}-idle`)).toBe(true);
  });

  it("cancels what still runs after the grace period, then exits", async () => {
    const proxy = await startProxyProcess(300);
    const name = uniqueName("nlq-term-cancel");
    const busy = clientThrough(proxy.port, name);
    await busy.connect();
    const sleeping = busy.query("select pg_sleep(120)").then(
      () => "finished",
      () => "failed",
    );
    await untilActive(name);
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toBe(0);
    expect(await sleeping).toBe("failed");
    expect(await backendsGone(name)).toBe(true);
  });
});
