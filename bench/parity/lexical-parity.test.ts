import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { testServerUrl } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { type ProxyServer, silentLogger, startProxyServer } from "@nlq/proxy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ParityMode, type PsqlTarget, runParity } from "./parity-run";

/**
 * The committed lexical cases (`lexical-cases/`: comments ended by `\r` and `\r\n`, nested comments, dollar quotes,
 * E'' strings and their continuations, markers in strings and identifiers, scripts ending with `-- NL:`, BEGIN ATOMIC
 * bodies, form feeds, vertical tabs, no-break spaces, backslashes under standard_conforming_strings = off) run with
 * the real psql directly and through a real proxy, as pg_regress runs a file and as one simple Query, with the native
 * relay on and off: the outputs must be byte-identical and no question may reach the answerer (none of them is a
 * question to PostgreSQL).
 */
const casesDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), "lexical-cases");
const sqlFiles = readdirSync(casesDirectory)
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .map((name) => path.join(casesDirectory, name));

const server = new URL(testServerUrl);
const direct: PsqlTarget = {
  host: server.hostname,
  port: Number(server.port || 5432),
  user: decodeURIComponent(server.username || "postgres"),
};
const adminDatabase = decodeURIComponent(server.pathname.slice(1) || "postgres");

describe.each([true, false])("psql directly and through the proxy (native relay %s)", (nativeRelay) => {
  let proxy: ProxyServer;
  let outputDirectory: string;
  const questions: string[] = [];

  beforeAll(async () => {
    outputDirectory = mkdtempSync(path.join(tmpdir(), "nlq-lexical-parity-"));
    proxy = await startProxyServer({
      listenPort: 0,
      upstreamHost: direct.host,
      upstreamPort: direct.port,
      answerQuestion: async (options) => {
        questions.push(options.question);
        throw new Error(`no question expected, got ${JSON.stringify(options.question)}`);
      },
      settings: loadSettings({}),
      logger: silentLogger,
      closeGraceMilliseconds: 200,
      nativeRelay,
    });
  });

  afterAll(async () => {
    await proxy?.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  it.each<ParityMode>(["file", "query"])("gives byte-identical outputs for every case run as a %s", async (mode) => {
    expect(sqlFiles.length).toBeGreaterThanOrEqual(12);
    const results = await runParity({
      sqlFiles,
      mode,
      direct,
      proxied: { ...direct, port: proxy.address.port },
      adminDatabase,
      outputDirectory,
    });
    expect(results.filter((result) => result.difference !== undefined || result.skipped !== undefined)).toEqual([]);
    expect(results).toHaveLength(sqlFiles.length);
    expect(questions).toEqual([]);
  });
});
