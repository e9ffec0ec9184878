import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createTestDatabase,
  dropTestRole,
  type PlantedCodeWorld,
  plantCode,
  type TestDatabase,
} from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { registerEvalCommand } from "./eval-command";
import { runCommand } from "./run-command.test-helpers";

// Issue 25 on the CLI: `nlq ask` answered by a (scripted) hostile model with a SELECT of a planted view, and `nlq eval`
// on a user's database whose candidates read planted code, run none of it: the program's file and the dblink rows are
// checked outside the session.
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-planted-cli-"));
let database: TestDatabase;
let admin: pg.Client;
let planted: PlantedCodeWorld;

beforeAll(async () => {
  database = await createTestDatabase("nlq_planted_cli");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN`);
  planted = await plantCode(admin, { attacker, database: database.name, suffix });
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await database?.drop();
  await dropTestRole(attacker);
  rmSync(directory, { recursive: true, force: true });
});

beforeEach(async () => {
  await planted.reset(admin);
});

async function expectNothingRan(): Promise<void> {
  expect(planted.fileWritten()).toBe(false);
  expect(await planted.lootRows(admin)).toEqual([]);
}

describe("planted code through the nlq command", () => {
  it("nlq ask refuses the planted view the model answered with, naming view, owner and function", async () => {
    const fixture = path.join(directory, "hostile-model.json");
    writeFileSync(
      fixture,
      JSON.stringify({
        description: "Scripted hostile answers (no model wrote them).",
        responses: [
          {
            step: "generate-candidate",
            question: "*",
            output: { reasoning: "Scripted.", sql: "SELECT * FROM att.v_sales" },
          },
          { step: "fix-candidate", question: "*", output: { reasoning: "Keep it.", sql: "" } },
        ],
      }),
    );
    const result = await runCommand(
      registerAskCommand,
      ["ask", "Sales by region?", "--url", database.url, "--preset", "fast"],
      {
        environment: { NLQ_HOME: directory, NLQ_MODEL: `scripted:${fixture}` },
      },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`view att.v_sales (owner ${attacker}): its view body calls att.f()`);
    await expectNothingRan();
  });

  it("nlq eval on a user's database runs none of a candidate's or a gold query's planted code", async () => {
    const pool = path.join(directory, "planted-pool.jsonl");
    const lines = [
      { id: "gold", question: "Sales by region?", gold: "SELECT region FROM att.v_sales", candidates: [] },
      {
        id: "candidates",
        question: "Sales by region?",
        gold: "SELECT 'north'::text AS region, 1 AS total",
        candidates: [
          { source: "view", sql: "SELECT * FROM att.v_sales" },
          { source: "cast", sql: "SELECT lower(amt) FROM att.ledger" },
        ],
      },
    ];
    writeFileSync(pool, lines.map((line) => JSON.stringify(line)).join("\n"));
    const result = await runCommand(
      registerEvalCommand,
      ["eval", "--candidates", pool, "--url", database.url, "--json"],
      {
        environment: {},
      },
    );
    const report = JSON.parse(result.stdout);
    expect(report.goldErrors).toEqual([
      expect.objectContaining({ id: "gold", error: expect.stringContaining("its view body calls att.f()") }),
    ]);
    expect([report.sources.view.ex, report.sources.cast.ex]).toEqual([0, 0]);
    await expectNothingRan();
  });
});
