import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { generateDemoDataset, loadDemoData } from "@nlq/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { runCommand } from "./run-command.test-helpers";

// The demo shows interpretations under the default preset (issue 28): with the demo's scripted model, "which carriers
// deliver late most often?" is read two ways by the three `balanced` candidates (fixtures/demo-model.json), so a
// newcomer sees the readings' buttons (web), NOTICEs (psql) and `--reading` (CLI) without choosing a preset.

let database: TestDatabase;
const home = mkdtempSync(path.join(tmpdir(), "nlq-ask-demo-readings-"));

beforeAll(async () => {
  database = await createTestDatabase("nlq_ask_demo_readings");
  await loadDemoData({ url: database.url, dataset: generateDemoDataset() });
}, 120_000);
afterAll(async () => {
  await database?.drop();
  rmSync(home, { recursive: true, force: true });
});

describe("the demo under the default preset", () => {
  it("offers two readings of 'which carriers deliver late most often?': by share (2 of 3) and by count (1 of 3)", async () => {
    const { stdout, exitCode } = await runCommand(
      registerAskCommand,
      ["ask", "which carriers deliver late most often?", "--url", database.url, "--json"],
      { environment: { NLQ_HOME: home, NLQ_MODEL: "scripted:fixtures/demo-model.json" } },
    );
    expect(exitCode).toBeFalsy();
    const answer = JSON.parse(stdout) as {
      sql: string;
      confidence: number;
      interpretations: Array<{ number: number; support: number; sql: string }>;
    };
    expect(answer.sql).toContain("late_percent");
    expect(answer.interpretations.map(({ number, support }) => [number, support])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(answer.interpretations[1]!.sql).toContain("ORDER BY late_shipments DESC");
    expect(answer.confidence).toBeCloseTo(2 / 3);
  }, 60_000);
});
