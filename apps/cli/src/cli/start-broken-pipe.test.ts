import { spawn } from "node:child_process";
import path from "node:path";
import { testServerUrl } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../launcher/launcher.test-helpers";

// `npm start | tee log`, then Ctrl-C: the terminal sends SIGINT to the whole group, tee exits first, and nlq's next
// line goes to a pipe nobody reads (EPIPE). nlq must still stop everything and exit 0, not crash on the write.
const metadataDatabase = `nlq_broken_pipe_${process.pid}`;
const server = new URL(testServerUrl);
const administration = () => new pg.Client({ connectionString: server.toString() });

beforeAll(async () => {
  const client = administration();
  await client.connect();
  await client.query(`create database ${metadataDatabase}`);
  await client.end();
});
afterAll(async () => {
  const client = administration();
  await client.connect();
  await client.query(`drop database if exists ${metadataDatabase} with (force)`);
  await client.end();
});

describe("nlq start with its output piped", () => {
  it("stops cleanly on SIGINT after the reader of its stdout went away (EPIPE)", async () => {
    const metadataUrl = new URL(server);
    metadataUrl.pathname = `/${metadataDatabase}`;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "main.ts"), "start", "--no-web"],
      {
        env: {
          ...process.env,
          DATABASE_URL: server.toString(),
          NLQ_METADATA_URL: metadataUrl.toString(),
          NLQ_PROXY_PORT: String(await freePort()),
          NLQ_MODEL: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("nlq is running.")) resolve();
      });
      void exited.then((code) => reject(new Error(`nlq exited ${code} before it ran:\n${stdout}\n${stderr}`)));
    });

    child.stdout.destroy(); // The reader (tee) is gone: nlq's next write to stdout fails with EPIPE.
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|uncaught/i);
  });
});
