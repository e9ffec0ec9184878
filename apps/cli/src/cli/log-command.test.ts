import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openMetadataStore, type QuestionAuditRow, roleAuthority } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { formatAuditEntries } from "./format-audit-entries";
import { registerLogCommand } from "./log-command";
import { runCommand } from "./run-command.test-helpers";

// The audit trail end to end (issue 19 item 5): `nlq ask` records each question with surface `cli` and the URL's
// role; `nlq log` shows a role its own entries only, and an administrator (a member of NLQ_WEB_EXAMPLE_ADMIN_ROLE)
// every role's — the web's included.
const fixture = "apps/cli/src/cli/fixtures/ask-command-model.json";
const question = "Which products cost more than 5?";
const suffix = randomBytes(4).toString("hex");
const alice = `nlq_log_alice_${suffix}`;
const bob = `nlq_log_bob_${suffix}`;
const carol = `nlq_log_carol_${suffix}`;
const administrators = `nlq_log_admins_${suffix}`;
let target: TestDatabase;
let metadata: TestDatabase;
const home = mkdtempSync(path.join(tmpdir(), "nlq-log-home-"));
let environment: Record<string, string>;

beforeAll(async () => {
  target = await createTestDatabase(
    "nlq_log",
    `CREATE ROLE ${alice} LOGIN; CREATE ROLE ${bob} LOGIN; CREATE ROLE ${carol} LOGIN; CREATE ROLE ${administrators};
     GRANT ${administrators} TO ${carol};
     CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2));
     INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);
     GRANT SELECT ON products TO ${alice}, ${bob};`,
  );
  metadata = await createTestDatabase("nlq_log_store");
  environment = {
    NLQ_HOME: home,
    NLQ_METADATA_URL: metadata.url,
    NLQ_MODEL: `scripted:${fixture}`,
    NLQ_WEB_EXAMPLE_ADMIN_ROLE: administrators,
  };
  for (const role of [alice, bob]) {
    const asked = await runCommand(
      registerAskCommand,
      ["ask", question, "--url", target.urlFor(role), "--preset", "fast", "--quiet"],
      {
        environment,
      },
    );
    expect(asked.exitCode, asked.stderr).toBeFalsy();
  }
  // A question bob asked in the web app (recorded as the chat handler records it).
  const store = await openMetadataStore({ url: metadata.url });
  store.auditTrail.record(
    {
      surface: "web",
      role: bob,
      dataSource: `127.0.0.1:5432/${target.name}`,
      clientAddress: "203.0.113.9",
      applicationName: "Firefox/140",
    },
    "bob's web question",
    { error: new Error("not shown") },
  );
  await store.close();
});
afterAll(async () => {
  await metadata?.drop();
  await target?.drop();
  for (const role of [alice, bob, carol, administrators]) await dropTestRole(role);
  rmSync(home, { recursive: true, force: true });
});

async function log(role: string, ...flags: string[]) {
  return runCommand(registerLogCommand, ["log", "--url", target.urlFor(role), ...flags], { environment });
}

async function logJson(role: string, ...flags: string[]): Promise<QuestionAuditRow[]> {
  const result = await log(role, "--json", ...flags);
  expect(result.exitCode, result.stderr).toBeFalsy();
  return JSON.parse(result.stdout) as QuestionAuditRow[];
}

describe("nlq log", () => {
  it("shows a role its own entries only: nlq ask recorded them with surface cli and the URL's role", async () => {
    const entries = await logJson(alice);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      role: alice,
      surface: "cli",
      applicationName: "nlq ask",
      question,
      sql: "SELECT name, price FROM products WHERE price > 5 ORDER BY name",
      ok: true,
      rows: 2,
      model: `scripted:${fixture}`,
    });
    expect(entries[0]!.confidenceBasis).toEqual(expect.any(String));
    // Counts only: the rows alice saw are not in the trail.
    expect(JSON.stringify(entries)).not.toContain("Blanket");

    const bobs = await logJson(bob);
    expect(bobs.map((entry) => [entry.role, entry.surface]).sort()).toEqual([
      [bob, "cli"],
      [bob, "web"],
    ]);
    expect(bobs.find((entry) => entry.surface === "web")).toMatchObject({
      ok: false,
      errorCode: "XX000",
      errorMessage: "internal error",
    });
  });

  it("refuses another role's entries to a role that is not an administrator", async () => {
    const result = await log(bob, "--role", alice);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${bob} may list only its own entries`);
    expect(result.stderr).toContain("SQLSTATE 42501");
    expect(result.stdout).toBe("");
    // Naming itself is allowed.
    expect(await logJson(bob, "--role", bob)).toHaveLength(2);
  });

  it("shows an administrator every role's entries, filtered by role, surface, time and count", async () => {
    const all = await logJson(carol, "--surface", "cli");
    expect(all.map((entry) => entry.role).sort()).toEqual([alice, bob]);
    expect((await logJson(carol, "--role", bob)).map((entry) => entry.surface).sort()).toEqual(["cli", "web"]);
    expect((await logJson(carol, "--role", alice)).map((entry) => entry.role)).toEqual([alice]);
    expect((await logJson(carol, "--surface", "web")).map((entry) => entry.question)).toEqual(["bob's web question"]);
    expect(await logJson(carol, "--limit", "1")).toHaveLength(1);
    expect(await logJson(carol, "--since", "2999-01-01")).toEqual([]);
    expect((await logJson(carol, "--since", "1h")).length).toBeGreaterThanOrEqual(3);
  });

  it("finds entries recorded under the server's own address (as the proxy records them) from a URL naming another host", async () => {
    const url = new URL(target.urlFor(alice));
    url.hostname = "localhost";
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const server = (await roleAuthority(client, administrators)).serverDataSource;
    await client.end();
    expect(server).toBeDefined();
    const store = await openMetadataStore({ url: metadata.url });
    store.auditTrail.record({ surface: "proxy", role: alice, dataSource: server! }, "asked through the proxy", {
      error: new Error("x"),
    });
    await store.close();
    const result = await runCommand(
      registerLogCommand,
      ["log", "--url", url.toString(), "--json", "--surface", "proxy"],
      {
        environment,
      },
    );
    expect(result.exitCode, result.stderr).toBeFalsy();
    expect((JSON.parse(result.stdout) as QuestionAuditRow[]).map((entry) => entry.question)).toEqual([
      "asked through the proxy",
    ]);
  });

  it("prints entries as text and refuses a bad --since before connecting (exit 2)", async () => {
    const text = await log(alice, "--surface", "cli");
    expect(text.stdout).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\S+Z  ${alice}  cli \\(nlq ask\\)  2 rows`));
    expect(text.stdout).toContain(`  question: ${question}`);
    const refused = await log(alice, "--since", "yesterday");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--since must be a duration such as 30m, 12h, 7d, 2w, or a date");
  });
});

describe("nlq log after a question whose candidates disagreed", () => {
  it("holds the interpretations offered, each with its SQL, support and row count, and none of their rows", async () => {
    const asked = await runCommand(
      registerAskCommand,
      ["ask", "How expensive are the products?", "--url", target.urlFor(alice), "--preset", "balanced", "--quiet"],
      {
        environment: {
          ...environment,
          NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/ask-interpretations-model.json",
        },
      },
    );
    expect(asked.exitCode, asked.stderr).toBeFalsy();
    const [entry] = await logJson(alice, "--limit", "1");
    expect(entry?.question).toBe("How expensive are the products?");
    expect(entry?.interpretations?.length).toBeGreaterThanOrEqual(2);
    for (const interpretation of entry?.interpretations ?? []) {
      expect(interpretation.sql).toMatch(/^SELECT /);
      expect(interpretation.support).toEqual(expect.any(Number));
      expect(interpretation.rows).toEqual(expect.any(Number));
    }
    expect(JSON.stringify(entry)).not.toContain("15.5000");
    expect((await log(alice, "--limit", "1")).stdout).toContain("  interpretation 2");
  });
});

describe("formatAuditEntries", () => {
  it("escapes control characters a client sent, so nothing recorded can drive the terminal", () => {
    const text = formatAuditEntries([
      {
        id: 1,
        askedAt: new Date("2026-11-27T08:00:00Z"),
        dataSource: "h:5432/d",
        role: "mallory",
        surface: "proxy",
        clientAddress: "10.0.0.1",
        applicationName: "psql",
        question: "hi\u001b[2Jthere\nnext",
        sql: null,
        ok: false,
        errorCode: "42501",
        errorMessage: "permission denied",
        confidence: null,
        confidenceBasis: null,
        rows: null,
        truncated: null,
        interpretations: null,
        model: null,
        elapsedMilliseconds: 3,
      },
    ]);
    expect(text).not.toContain("\u001b");
    expect(text).toContain("  question: hi\\u{1b}[2Jthere next");
    expect(text).toContain("mallory  proxy (psql, 10.0.0.1)  failed 42501");
  });
});
