import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerQuestion } from "@nlq/engine";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProxy } from "../clients/proxy-fixture";
import { adversarialSettings } from "./adversarial-settings";
import { type AdversarialWorld, createAdversarialWorld } from "./adversarial-world";
import { recordingScriptedResolver } from "./ask-question";
import { adversarialCases, describeCounts, unguardedControls } from "./case-matrix";
import { type AdversarialMcp, startAdversarialMcp } from "./mcp-servers";
import { type CaseEnvironment, runCase } from "./run-case";
import { mcpCases, runMcpCase } from "./run-mcp-case";
import { secretServerFile } from "./side-effect-payloads";

/**
 * Issue 6, item 6: hostile SQL from a (scripted) model, through the real proxy and through core's answerQuestion on a
 * pg connection, under a superuser, an ordinary role and an RLS-limited role, in several session variants; issue 25:
 * code another role planted, also through the real `nlq mcp` over stdio and HTTP. Every case must leave zero writes
 * and zero surviving side effects (a planted program's file and dblink rows included); a failing case lists each one
 * it found.
 */
describe("adversarial suite: a question never changes the database, the session or other sessions", () => {
  let world: AdversarialWorld;
  let observer: pg.Client;
  let proxy: ProxyServer;
  let directory: string;
  let environment: CaseEnvironment;
  const ran: (typeof adversarialCases)[number][] = [];

  beforeAll(async () => {
    world = await createAdversarialWorld();
    observer = new pg.Client({ connectionString: world.database.url });
    await observer.connect();
    directory = mkdtempSync(join(tmpdir(), "nlq-adversarial-"));
    const fixturePath = join(directory, "hostile-model.json");
    const settings = adversarialSettings(fixturePath);
    const proxySteps: string[] = [];
    proxy = await startTestProxy(
      (options) =>
        answerQuestion({ ...options, settings, resolveModel: recordingScriptedResolver(settings, proxySteps) }),
      { settings },
    );
    const secret = await observer.query<{ contents: string }>("SELECT pg_read_file($1) AS contents", [
      secretServerFile,
    ]);
    environment = {
      world,
      observer,
      proxyPort: proxy.address.port,
      fixturePath,
      settings,
      proxySteps,
      secretNeedle: secret.rows[0]?.contents.split(/\s/)[0] ?? secretServerFile,
    };
  });

  afterAll(async () => {
    console.log(describeCounts(ran));
    await proxy?.close();
    await observer?.end();
    await world?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  // Controls: the same hostile SQL sent straight to the session must be caught by the checks, so a passing case
  // means nothing was left behind, not that the checks could not see it.
  unguardedControls.forEach((testCase, index) => {
    it(`control · unguarded · ${testCase.role} · ${testCase.variant}: ${testCase.payload.name} is detected`, async () => {
      expect(await runCase(environment, testCase, 10_000 + index)).not.toEqual([]);
    });
  });

  adversarialCases.forEach((testCase, index) => {
    it(`${testCase.path} · ${testCase.role} · ${testCase.variant} · ${testCase.payload.group}: ${testCase.payload.name}`, async () => {
      ran.push(testCase);
      expect(await runCase(environment, testCase, index)).toEqual([]);
    });
  });

  // Last: the `nlq mcp` processes (and their background value-index builds) start only once the cases that count the
  // database's backends are done.
  describe("through nlq mcp", () => {
    let mcp: AdversarialMcp;
    beforeAll(async () => {
      mcp = await startAdversarialMcp(world, environment.fixturePath);
    }, 120_000);
    afterAll(async () => {
      console.log(`adversarial: ${mcpCases.length} MCP cases run (stdio and HTTP, three roles)`);
      await mcp?.close();
    });
    mcpCases.forEach((testCase, index) => {
      const what = testCase.tool === "search_schema" ? "samples no planted table" : testCase.payload.name;
      it(`mcp-${testCase.transport} · ${testCase.role} · ${testCase.tool}: ${what}`, async () => {
        expect(await runMcpCase(environment, mcp, testCase, 20_000 + index)).toEqual([]);
      });
    });
  });
});
