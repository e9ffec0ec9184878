import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { mockTextModel, promptText } from "@nlq/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerEvalCommand } from "./eval-command";
import { registerIndexCommand } from "./index-command";
import { runCommand } from "./run-command.test-helpers";

// `nlq eval --questions` asks through the same composition as `nlq ask`: with a metadata store holding the database's
// index, the catalog each question sees is the indexed one (here: the `shop` schema only), not live introspection.
let database: TestDatabase;
let metadata: TestDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-eval-index-"));
const outsideTheIndex = "ledger_outside_the_index";

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_eval_index",
    `CREATE SCHEMA shop;
     CREATE TABLE shop.items (id integer PRIMARY KEY, name text, price numeric(6,2));
     INSERT INTO shop.items VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00);
     CREATE TABLE public.${outsideTheIndex} (id integer PRIMARY KEY, amount numeric);`,
  );
  metadata = await createTestDatabase("nlq_eval_index_metadata");
});
afterAll(async () => {
  await database?.drop();
  await metadata?.drop();
  rmSync(directory, { recursive: true, force: true });
});

/** Runs `nlq eval --questions` with a model that answers the gold and keeps every generation prompt. */
async function evaluate(environment: Record<string, string | undefined>) {
  const questions = path.join(directory, "questions.jsonl");
  writeFileSync(
    questions,
    `${JSON.stringify({ id: "1", question: "How many items?", schema: "shop", gold: "SELECT count(*) FROM items" })}\n`,
  );
  const prompts: string[] = [];
  const model = mockTextModel((call) => {
    const prompt = promptText(call);
    if (!prompt.includes("extract keywords, keyphrases and named entities")) prompts.push(prompt);
    return JSON.stringify({ reasoning: "gold", sql: "SELECT count(*) FROM items" });
  });
  const result = await runCommand(
    registerEvalCommand,
    ["eval", "--questions", questions, "--url", database.url, "--preset", "fast", "--json"],
    { environment, resolveModel: () => ({ model, id: "mock:gold", scripted: false }) },
  );
  return { result, prompts: prompts.join("\n") };
}

describe("nlq eval --questions with a catalog index", () => {
  it("answers from the indexed catalog when the metadata store holds the database's index", async () => {
    // Without a store: live introspection sees every schema.
    const live = await evaluate({});
    expect(live.result.exitCode).toBeFalsy();
    expect(live.prompts).toContain(outsideTheIndex);

    const environment = { NLQ_METADATA_URL: metadata.url };
    const indexed = await runCommand(registerIndexCommand, ["index", "--url", database.url, "--schema", "shop"], {
      environment,
      tty: false,
    });
    expect(indexed.stdout).toContain("1 (re)indexed");
    const fromIndex = await evaluate(environment);
    expect(fromIndex.result.exitCode).toBeFalsy();
    expect(JSON.parse(fromIndex.result.stdout)).toMatchObject({ questions: 1, ex: 1 });
    expect(fromIndex.prompts).toContain("items");
    expect(fromIndex.prompts).not.toContain(outsideTheIndex);
  }, 120_000);
});
