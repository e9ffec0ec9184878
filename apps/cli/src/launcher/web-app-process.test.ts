import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./launcher.test-helpers";
import { startWebApp } from "./web-app-process";

// A stand-in for the `next` CLI: `build` writes .next/BUILD_ID, `start -H host -p port` serves the
// environment it was given as JSON (or exits at once when FAKE_NEXT_FAIL is set).
const fakeNext = `
const fs = require("node:fs");
const http = require("node:http");
const [command, , host, , port] = process.argv.slice(2);
if (command === "build") {
  fs.mkdirSync(".next", { recursive: true });
  fs.writeFileSync(".next/BUILD_ID", "fake");
  console.log("built");
} else if (process.env.FAKE_NEXT_FAIL) {
  console.error("cannot start");
  process.exit(3);
} else {
  http.createServer((request, response) => response.end(JSON.stringify(process.env))).listen(Number(port), host, () => console.log("ready"));
}
`;

const directory = mkdtempSync(path.join(tmpdir(), "nlq-web-"));
const nextBinary = path.join(directory, "fake-next.cjs");
writeFileSync(nextBinary, fakeNext);
mkdirSync(path.join(directory, "app"));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("startWebApp", () => {
  it("builds once when there is no build, starts with the given environment, and stops", async () => {
    const lines: string[] = [];
    const port = await freePort();
    const web = await startWebApp({
      directory,
      nextBinary,
      host: "127.0.0.1",
      port,
      environment: {
        ...process.env,
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/postgres",
        NLQ_METADATA_URL: "postgresql://m",
      },
      log: (line) => lines.push(line),
    });
    try {
      expect(existsSync(path.join(directory, ".next", "BUILD_ID"))).toBe(true);
      expect(lines).toContain(
        "building the web app in the background (first start, or its sources changed; a minute or two)…",
      );
      expect(lines).toContain("[web build] built");
      expect(web.url).toBe(`http://127.0.0.1:${port}`);
      const environment = (await (await fetch(web.url)).json()) as Record<string, string>;
      expect(environment).toMatchObject({
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/postgres",
        NLQ_METADATA_URL: "postgresql://m",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(port),
      });
    } finally {
      await web.stop();
    }
    await expect(fetch(web.url)).rejects.toThrow();

    // Built now: the second start does not build again.
    const secondLines: string[] = [];
    const second = await startWebApp({
      directory,
      nextBinary,
      host: "127.0.0.1",
      port,
      environment: process.env,
      log: (line) => secondLines.push(line),
    });
    await second.stop();
    expect(secondLines.some((line) => line.includes("building"))).toBe(false);
  });

  it("reports a web app that exits while starting", async () => {
    const lines: string[] = [];
    const failure = startWebApp({
      directory,
      nextBinary,
      host: "127.0.0.1",
      port: await freePort(),
      environment: { ...process.env, FAKE_NEXT_FAIL: "1" },
      log: (line) => lines.push(line),
    });
    await expect(failure).rejects.toThrow(/the web app exited with 3 while starting/);
    expect(lines).toContain("[web] cannot start");
  });
});
