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
import { type CaseEnvironment, runCase } from "./run-case";
import { secretServerFile } from "./side-effect-payloads";

/**
 * Issue 6, item 6: hostile SQL from a (scripted) model, through the real proxy and through core's answerQuestion on a
 * pg connection, under a superuser, an ordinary role and an RLS-limited role, in several session variants. Every case
 * must leave zero writes and zero surviving side effects; a failing case lists each one it found.
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
});
