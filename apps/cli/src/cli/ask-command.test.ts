import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { builtInPresets } from "@nlq/engine";
import { Command } from "commander";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeCalls, registerAskCommand } from "./ask-command";
import { formatTable } from "./format-table";
import { runCommand } from "./run-command.test-helpers";

const fixture = "apps/cli/src/cli/fixtures/ask-command-model.json";
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_ask",
    "CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2)); INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);",
  );
});
/** An NLQ_HOME without `.nlq/`, so the tests never open the metadata store of the working directory. */
const emptyHome = mkdtempSync(path.join(tmpdir(), "nlq-ask-home-"));
afterAll(async () => {
  await database?.drop();
  rmSync(emptyHome, { recursive: true, force: true });
});

async function runAsk(argumentsList: string[], environment: Record<string, string | undefined>) {
  return runCommand(registerAskCommand, ["ask", ...argumentsList], {
    environment: { NLQ_HOME: emptyHome, ...environment },
  });
}

const productsQuestion = "Which products cost more than 5?";

/** Asks the products question with the scripted fixture as the model; `options` and `environment` add to it. */
async function askProducts(options: string[], environment: Record<string, string | undefined> = {}) {
  return runAsk([productsQuestion, ...options], { NLQ_MODEL: `scripted:${fixture}`, ...environment });
}

describe("nlq ask", () => {
  it("prints the SQL, an aligned table, the selection, model calls per step and the scripted label", async () => {
    const result = await askProducts(["--url", database.url, "--preset", "fast"]);
    expect(result.exitCode).toBeFalsy();
    expect(result.stdout).toBe(
      [
        "SELECT name, price FROM products WHERE price > 5 ORDER BY name;",
        "",
        " name    | price",
        "---------+-------",
        " Blanket | 30.00",
        " Lamp    | 12.50",
        "(2 rows)",
        "",
        "selection: 1 candidate",
        "model calls: 2, 0+0 tokens",
        "  extract-keywords: 1 call, 0+0 tokens",
        "  generate-candidate: 1 call, 0+0 tokens",
        `model: scripted:${fixture} (scripted replay, not a language model)`,
        "reasoning: Filter products by price and sort by name.",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toContain("… Read the schema: 1 table, 3 columns (introspected)");
    expect(result.stderr).toContain("… SQL candidate 1: ran, 2 rows");
  });

  it("prints the plain-language sentence, labelled as a scripted replay, when the preset writes one", async () => {
    const presetFile = path.join(emptyHome, "fast-with-sentence.json");
    writeFileSync(
      presetFile,
      JSON.stringify({ ...builtInPresets.fast, name: "fast-with-sentence", summarizeAnswer: true }),
    );
    const result = await askProducts(["--url", database.url, "--preset", presetFile]);
    expect(result.exitCode).toBeFalsy();
    expect(result.stdout).toContain(
      [
        "(2 rows)",
        "",
        "answer: Two products cost more than 5: Blanket at 30.00 and Lamp at 12.50. (scripted replay, not a language model)",
        "selection: 1 candidate",
        "model calls: 3, 0+0 tokens",
      ].join("\n"),
    );
    expect(result.stdout).toContain("  summarize-answer: 1 call, 0+0 tokens");
  });

  it("lists the interpretations when the balanced preset's generators disagree, as text and in --json", async () => {
    const environment = { NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/ask-interpretations-model.json" };
    const question = "How expensive are the products?";
    const json = await runAsk(
      [question, "--url", database.url, "--preset", "balanced", "--json", "--quiet"],
      environment,
    );
    expect(json.exitCode).toBeFalsy();
    const answer = JSON.parse(json.stdout);
    expect(answer.sql).toBe("SELECT avg(price) AS price FROM products");
    expect(answer.needsChoice).toBe(true);
    expect(answer.interpretations.length).toBeGreaterThanOrEqual(2);
    expect(
      answer.interpretations.map((reading: Record<string, unknown>) => [reading.sql, reading.support, reading.rows]),
    ).toEqual([
      ["SELECT avg(price) AS price FROM products", 1, [["15.5000000000000000"]]],
      ["SELECT max(price) AS price FROM products", 1, [["30.00"]]],
      [
        "SELECT name, price FROM products ORDER BY price DESC",
        1,
        [
          ["Blanket", "30.00"],
          ["Lamp", "12.50"],
          ["Mug", "4.00"],
        ],
      ],
    ]);
    expect(answer.interpretations[1].difference).toBe(
      "returns max(price) instead of avg(price); price is 30.00 instead of 15.5000000000000000",
    );

    const text = await runAsk([question, "--url", database.url, "--preset", "balanced", "--quiet"], environment);
    expect(text.exitCode).toBeFalsy();
    expect(text.stdout).toContain(
      [
        "interpretations: the readings' results differ (the chosen reading has 1 of 3 candidates (33%), below NLQ_ASK_WHEN_SUPPORT_BELOW=0.5); the rows above are #1's — which did you mean? (--reading N answers with #N; add --remember to keep it from now on)",
        "  #1 (chosen), 1 of 3 candidates: SELECT avg(price) AS price FROM products",
        "  #2, 1 of 3 candidates: SELECT max(price) AS price FROM products",
        "     differs: returns max(price) instead of avg(price); price is 30.00 instead of 15.5000000000000000",
        "      price",
        "     -------",
        "      30.00",
        "     (1 row)",
        "  #3, 1 of 3 candidates: SELECT name, price FROM products ORDER BY price DESC",
      ].join("\n"),
    );
  });

  it("prints JSON with --json and reads DATABASE_URL", async () => {
    const result = await askProducts(["--json", "--quiet"], { DATABASE_URL: database.url });
    expect(result.stderr).toBe("");
    const answer = JSON.parse(result.stdout);
    expect(answer.result.rows).toEqual([
      ["Blanket", "30.00"],
      ["Lamp", "12.50"],
    ]);
    expect(answer.model).toEqual({ id: `scripted:${fixture}`, scripted: true });
  });

  it("records the question in the metadata store's query log when NLQ_METADATA_URL is set", async () => {
    const metadata = await createTestDatabase("nlq_ask_metadata");
    try {
      const result = await askProducts(["--url", database.url, "--quiet"], { NLQ_METADATA_URL: metadata.url });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBeFalsy();
      const client = new pg.Client({ connectionString: metadata.url });
      await client.connect();
      try {
        const logged = await client.query("SELECT question, ok, rows, scripted, origin FROM query_log");
        expect(logged.rows).toEqual([
          { question: "Which products cost more than 5?", ok: true, rows: 2, scripted: true, origin: "cli" },
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await metadata.drop();
    }
  });

  it("shares the embedded metadata store a running nlq start holds instead of being locked out", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "nlq-ask-shared-"));
    // Stands for nlq start: the embedded PostgreSQL of this NLQ_HOME is running and holds the store.
    const running = await openMetadataStore({ settings: { home } });
    try {
      const result = await askProducts(["--url", database.url], { NLQ_HOME: home });
      expect(result.exitCode).toBeFalsy();
      expect(result.stderr).not.toContain("cannot open the metadata store");
      expect(result.stdout).toContain("(2 rows)");
      const [logged] = await running.queryLog.recentQueries(1);
      expect(logged).toMatchObject({ question: "Which products cost more than 5?", origin: "cli" });
    } finally {
      await running.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it("reports errors with their SQLSTATE and exit code 1", async () => {
    const noModel = await runAsk([productsQuestion, "--url", database.url], {});
    expect(noModel.exitCode).toBe(1);
    expect(noModel.stderr).toMatch(
      /nlq ask: no language model is configured[\s\S]*NLQ_MODEL=openai:gpt-4o-mini[\s\S]*\(SQLSTATE 55000\)/,
    );
    const refused = await runAsk(["Drop everything", "--url", database.url], {
      NLQ_MODEL: `scripted:${fixture}`,
      NLQ_MAX_FIX_ATTEMPTS: "0",
    });
    expect(refused.stderr).toMatch(/only read-only queries are allowed, not DropStmt \(SQLSTATE 25006\)/);
    const noUrl = await runAsk(["anything"], {});
    expect(noUrl.stderr).toBe("nlq ask: no database: pass --url postgresql://… or set DATABASE_URL\n");
  });
});

describe("describeCalls", () => {
  it("counts calls, tokens, cache hits and failed calls per step", () => {
    const call = { model: "openai:gpt-4o-mini", scripted: false, latencyMilliseconds: 10 };
    expect(
      describeCalls([
        { ...call, step: "generate-candidate", inputTokens: 100, outputTokens: 20 },
        { ...call, step: "select-candidate", inputTokens: 50, outputTokens: 5, failure: "unreadable-output" },
        { ...call, step: "select-candidate", inputTokens: 50, outputTokens: 5, cached: true },
      ]),
    ).toEqual([
      "model calls: 3, 200+30 tokens",
      "  generate-candidate: 1 call, 100+20 tokens",
      "  select-candidate: 2 calls, 100+10 tokens, 1 from the cache, 1 failed",
    ]);
  });
});

describe("nlq ask input checks", () => {
  /** A model that fails loudly if it is ever called: the fixture does not exist. */
  const unusableModel = { NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/no-such-fixture.json" };

  it.each(["", "   ", "\t\n"])(
    "refuses the empty question %j with a usage error (exit 2) and no model call",
    async (question) => {
      const result = await runAsk([question, "--url", database.url], unusableModel);
      expect(result.stderr).toBe('nlq ask: the question is empty: nlq ask "how many customers are there?"\n');
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
    },
  );

  it("refuses a --url that is not a PostgreSQL URL, naming it (password hidden), before connecting", async () => {
    const result = await runAsk(["how many products?", "--url", "not-a-url"], unusableModel);
    expect(result.stderr).toBe('nlq ask: --url must be a postgresql://user@host:port/database URL, got "not-a-url"\n');
    expect(result.exitCode).toBe(2);
    const secret = await runAsk(["how many products?", "--url", "postgresql://admin:hunter2@/db"], unusableModel);
    expect(secret.stderr).toContain('got "postgresql://admin:***@/db"');
    expect(secret.stderr).not.toContain("hunter2");
    expect(secret.exitCode).toBe(2);
    const fromEnvironment = await runAsk(["how many products?"], { ...unusableModel, DATABASE_URL: "localhost:5432" });
    expect(fromEnvironment.stderr).toContain(
      'DATABASE_URL must be a postgresql://user@host:port/database URL, got "localhost:5432"',
    );
  });

  it("refuses a question over NLQ_MAX_QUESTION_LENGTH (exit 2) without quoting it", async () => {
    const question = `${"which products cost more than five? ".repeat(200)}tail-marker`;
    const result = await runAsk([question, "--url", database.url], unusableModel);
    expect(result.stderr).toBe(
      `nlq ask: the question is ${question.length} characters long; nlq accepts at most 4000 (NLQ_MAX_QUESTION_LENGTH) (SQLSTATE 54000)\n`,
    );
    expect(result.exitCode).toBe(2);
    const lower = await runAsk(["how many products are there?", "--url", database.url], {
      ...unusableModel,
      NLQ_MAX_QUESTION_LENGTH: "10",
    });
    expect(lower.stderr).toContain("nlq accepts at most 10 (NLQ_MAX_QUESTION_LENGTH)");
  });
});

describe("nlq ask --help", () => {
  it("documents the arguments, options and model variables", () => {
    const program = new Command();
    registerAskCommand(program, { write: () => undefined, writeError: () => undefined, environment: {} });
    const ask = program.commands.find((command) => command.name() === "ask")!;
    let help = "";
    ask.configureOutput({ writeOut: (text) => (help += text) });
    ask.outputHelp();
    for (const text of [
      "<question>",
      "--url <url>",
      "--hint <text>",
      "--json",
      "DATABASE_URL",
      "NLQ_MODEL",
      "scripted:fixtures/demo-model.json",
    ]) {
      expect(help).toContain(text);
    }
  });
});

describe("formatTable", () => {
  it("shows NULL as empty and counts rows", () => {
    expect(formatTable(["a", "long_name"], [["1", null]])).toBe(" a | long_name\n---+-----------\n 1 |\n(1 row)");
  });
});
