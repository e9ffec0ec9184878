import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { dataSourceKey, KnowledgeStore, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { createProgressReporter, registerIndexCommand } from "./index-command";

async function run(args: string[], environment: Record<string, string | undefined>, tty = false) {
  const written: string[] = [];
  const errors: string[] = [];
  const program = new Command().exitOverride();
  registerIndexCommand(program, {
    write: (text) => written.push(text),
    writeError: (text) => errors.push(text),
    tty,
    environment,
  });
  process.exitCode = undefined;
  await program.parseAsync(["node", "nlq", "index", ...args]);
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  return { output: written.join(""), errors: errors.join(""), exitCode };
}

async function ask(question: string, url: string, environment: Record<string, string | undefined>) {
  const written: string[] = [];
  const errors: string[] = [];
  const program = new Command().exitOverride();
  registerAskCommand(program, {
    write: (text) => written.push(text),
    writeError: (text) => errors.push(text),
    environment,
  });
  await program.parseAsync(["node", "nlq", "ask", question, "--url", url]);
  process.exitCode = undefined;
  return { output: written.join(""), errors: errors.join("") };
}

describe("nlq index", () => {
  let database: TestDatabase;
  let home: string;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_index_command",
      `CREATE SCHEMA shop; CREATE TABLE shop.product (id integer PRIMARY KEY, title text);
       INSERT INTO shop.product VALUES (1, 'Lamp'), (2, 'Chair');
       CREATE TABLE public.other (id integer);`,
    );
    home = await mkdtemp(path.join(tmpdir(), "nlq-index-command-"));
  });

  afterAll(async () => {
    await database?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it("indexes into the embedded PostgreSQL store under NLQ_HOME, then finds nothing changed", async () => {
    const environment = { NLQ_HOME: home };
    const first = await run(["--url", database.url, "--schema", "shop"], environment);
    expect(first.errors).toContain("indexed 1/1 tables (100%");
    expect(first.output).toMatch(
      /^indexed nlq_index_command_\w+: 1 tables, 2 columns — 1 \(re\)indexed, 0 unchanged, 0 removed/,
    );
    expect(first.exitCode).toBeUndefined();
    const second = await run(["--url", database.url, "--schema", "shop"], environment);
    expect(second.output).toContain("0 (re)indexed, 1 unchanged");
    // All schemas, then one schema again: the other schema's tables stay indexed.
    expect((await run(["--url", database.url], environment)).output).toContain(
      "2 tables, 3 columns — 1 (re)indexed, 1 unchanged",
    );
    expect((await run(["--url", database.url, "--schema", "shop"], environment)).output).toContain(
      "1 unchanged, 0 removed",
    );
    expect((await run(["--url", database.url], environment)).output).toContain("0 (re)indexed, 2 unchanged, 0 removed");
  });

  it("nlq ask uses the index built in the NLQ_METADATA_URL store", async () => {
    const metadata = await createTestDatabase("nlq_index_metadata");
    try {
      const environment = {
        NLQ_METADATA_URL: metadata.url,
        NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/index-command-model.json",
      };
      expect((await run(["--url", database.url, "--schema", "shop"], environment)).output).toContain("1 (re)indexed");
      const answer = await ask("How many products are there?", database.url, environment);
      // Live introspection would see two tables; the index holds only the shop schema.
      expect(answer.errors).toContain("Read the schema: 1 table, 2 columns (from the catalog index)");
      expect(answer.output).toContain("SELECT count(*) AS products FROM shop.product;");
    } finally {
      await metadata.drop();
    }
  });

  it("keeps a defog glossary from --catalog-files as knowledge entries, and re-indexing follows the file", async () => {
    const metadata = await createTestDatabase("nlq_index_glossary");
    const files = await mkdtemp(path.join(tmpdir(), "nlq-index-glossary-"));
    try {
      const environment = { NLQ_METADATA_URL: metadata.url };
      const file = path.join(files, "shop.json");
      const describe = (glossary: string) =>
        writeFile(
          file,
          JSON.stringify({
            table_metadata: { product: [{ column_name: "title", column_description: "Product title" }] },
            glossary,
          }),
        );
      await describe("- A lamp is any product titled Lamp\n- revenue = sum of order totals");
      const first = await run(["--url", database.url, "--schema", "shop", "--catalog-files", files], environment);
      expect(first.exitCode, first.errors).toBeUndefined();
      expect(first.output).toContain(
        "kept 2 glossary lines of shop.json as knowledge (shared with every role): 2 created, 0 updated, 0 unchanged, 0 removed",
      );
      await describe("- revenue = sum of order totals");
      const second = await run(["--url", database.url, "--schema", "shop", "--catalog-files", files], environment);
      expect(second.output).toContain(
        "kept 1 glossary lines of shop.json as knowledge (shared with every role): 0 created, 1 updated, 0 unchanged, 1 removed",
      );
      const store = await openMetadataStore({ url: metadata.url });
      try {
        const entries = await new KnowledgeStore(store.database).visibleTo(dataSourceKey(database.url), "postgres");
        expect(entries.map((entry) => [entry.kind, entry.name, entry.text, entry.origin])).toEqual([
          ["term", "revenue", "revenue = sum of order totals", "catalog-files"],
        ]);
      } finally {
        await store.close();
      }
    } finally {
      await metadata.drop();
      await rm(files, { recursive: true, force: true });
    }
  });

  it("nlq ask uses the embedded PostgreSQL index under NLQ_HOME by default", async () => {
    const environment = { NLQ_HOME: home, NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/index-command-model.json" };
    // The store under NLQ_HOME holds both schemas from the first test.
    expect((await run(["--url", database.url], environment)).exitCode).toBeUndefined();
    const answer = await ask("How many products are there?", database.url, environment);
    expect(answer.errors).toContain("Read the schema: 2 tables, 3 columns (from the catalog index)");
    expect(answer.output).toContain("SELECT count(*) AS products FROM shop.product;");
  });

  it("refuses to run without a database URL (usage error, exit 2)", async () => {
    const result = await run([], { NLQ_HOME: home });
    expect(result.errors).toContain("no database");
    expect(result.exitCode).toBe(2);
  });

  it("refuses a --url that is not a PostgreSQL URL before any work, naming it without its password", async () => {
    const bad = await run(["--url", "not-a-url"], { NLQ_HOME: home });
    expect(bad.errors).toBe('nlq index: --url must be a postgresql://user@host:port/database URL, got "not-a-url"\n');
    expect(bad.exitCode).toBe(2);
    const secret = await run([], { NLQ_HOME: home, DATABASE_URL: "mysql://admin:hunter2@db/app" });
    expect(secret.errors).toContain(
      'DATABASE_URL must be a postgresql://user@host:port/database URL, got "mysql://admin:***@db/app"',
    );
    expect(secret.errors).not.toContain("hunter2");
    expect(secret.exitCode).toBe(2);
  });

  it("draws a bar with counts and ETA on a TTY", () => {
    const lines: string[] = [];
    const reporter = createProgressReporter({ write: () => {}, writeError: (text) => lines.push(text) }, true);
    reporter.update({ done: 1, total: 4, table: "shop.product", status: "indexed" });
    expect(lines[0]).toMatch(/^\r\u001b\[2K\[#####\.{15}\] 1\/4 25% ETA -- shop\.product$/);
    reporter.update({ done: 3, total: 4, table: "shop.sale", status: "indexed" });
    expect(lines[1]).toMatch(/^\r\u001b\[2K\[###############\.{5}\] 3\/4 75% ETA \d+s shop\.sale$/);
  });
});
