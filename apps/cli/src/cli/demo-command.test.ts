import { spawnSync } from "node:child_process";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { generateDemoDataset, renderDemoSql } from "@nlq/demo";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDemoCommand } from "./demo-command";

/** Runs `nlq <args>` with the demo command registered, capturing stdout and stderr. */
async function runNlq(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  let stdout = "";
  let stderr = "";
  const program = new Command()
    .name("nlq")
    .exitOverride()
    .configureOutput({ writeOut: (text) => (stdout += text), writeErr: (text) => (stderr += text) });
  registerDemoCommand(program, { write: (text) => (stdout += text), writeError: (text) => (stderr += text) });
  const previousExitCode = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(args, { from: "user" });
    return { stdout, stderr, exitCode: Number(process.exitCode ?? 0) };
  } catch (error) {
    if (!(error instanceof Error && "exitCode" in error)) throw error;
    return { stdout, stderr, exitCode: Number(error.exitCode) };
  } finally {
    process.exitCode = previousExitCode;
  }
}

describe("nlq demo", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("nlq_demo_cli");
  });
  afterAll(() => database?.drop());

  it("documents load and sql in --help", async () => {
    const help = await runNlq(["demo", "load", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--url <url>");
    expect(help.stdout).toContain("--schema <schema>");
    expect(help.stdout).toContain("--replace");
    const top = await runNlq(["demo", "--help"]);
    expect(top.stdout).toMatch(/load \[options\]/);
    expect(top.stdout).toMatch(/sql \[options\]/);
  });

  it("requires --url for load (or NLQ_DEMO_URL / DATABASE_URL)", async () => {
    const saved = { NLQ_DEMO_URL: process.env.NLQ_DEMO_URL, DATABASE_URL: process.env.DATABASE_URL };
    delete process.env.NLQ_DEMO_URL;
    delete process.env.DATABASE_URL;
    try {
      const result = await runNlq(["demo", "load"]);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain("--url");
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  });

  it("refuses a --url that is not a PostgreSQL URL with a usage error (exit 2) naming it", async () => {
    const result = await runNlq(["demo", "load", "--url", "not-a-url"]);
    expect(result.stderr).toBe(
      'nlq demo load: --url must be a postgresql://user@host:port/database URL, got "not-a-url"\n',
    );
    expect(result.exitCode).toBe(2);
  });

  it("loads into a schema and prints tables and rows; a second load is refused with a clear message", async () => {
    const loaded = await runNlq(["demo", "load", "--url", database.url, "--schema", "shop"]);
    expect(loaded.exitCode).toBe(0);
    expect(loaded.stdout).toContain('into schema "shop"');
    expect(loaded.stdout).toMatch(/customers\s+1500 rows/);
    expect(loaded.stdout).toMatch(/orders\s+4000 rows/);
    expect(loaded.stdout).toMatch(/total\s+\d+ rows/);

    const again = await runNlq(["demo", "load", "--url", database.url, "--schema", "shop"]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("already exist");
    expect(again.stderr).toContain("--replace");
    expect(again.stderr).toContain("42P07");

    const replaced = await runNlq(["demo", "load", "--url", database.url, "--schema", "shop", "--replace"]);
    expect(replaced.exitCode).toBe(0);
  });

  it("shifts the data to --anchor-date and rejects malformed dates", async () => {
    const printed = await runNlq(["demo", "sql", "--anchor-date", "2027-03-01"]);
    expect(printed.stdout).toBe(renderDemoSql(generateDemoDataset({ anchorDate: "2027-03-01" })));
    expect(printed.stdout).toContain("'2027-02-");
    const malformed = await runNlq(["demo", "sql", "--anchor-date", "2027-02-30"]);
    expect(malformed.exitCode).not.toBe(0);
    expect(malformed.stderr).toContain("YYYY-MM-DD");
    const tooEarly = await runNlq(["demo", "load", "--url", database.url, "--anchor-date", "2021-01-01"]);
    expect(tooEarly.exitCode).not.toBe(0);
    expect(tooEarly.stderr).toContain("2022-01-01");
  });

  it("prints the SQL script, which real psql loads", async () => {
    const printed = await runNlq(["demo", "sql", "--schema", "from_psql"]);
    expect(printed.stdout).toBe(renderDemoSql(generateDemoDataset(), { schema: "from_psql" }));
    const psql = spawnSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", database.url], {
      input: printed.stdout,
      encoding: "utf8",
    });
    expect(psql.stderr).toBe("");
    expect(psql.status).toBe(0);
    const count = spawnSync(
      "psql",
      ["-X", "-At", "-d", database.url, "-c", "SELECT count(*) FROM from_psql.customers"],
      { encoding: "utf8" },
    );
    expect(count.stdout.trim()).toBe("1500");
  });
});
