import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpiderWarehouse } from "../../../../bench/spider-warehouse/load-spider-warehouse";
import { registerAskCommand } from "./ask-command";
import { registerIndexCommand } from "./index-command";
import { runCommand } from "./run-command.test-helpers";

/**
 * The warehouse flow of the catalog index: three Spider databases loaded into a throwaway database (one schema each,
 * as `load-spider-warehouse.ts` loads all 157), `nlq index` with its progress bar, then `nlq ask` on questions that
 * misspell a stored value — the retrieved value and column show in the progress lines, and the scripted model
 * (fixtures/spider-warehouse-model.json, written as a model shown that value would answer) filters on the right spelling.
 */
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const dataDirectory = path.resolve(repositoryRoot, "../shared/data/spider-warehouse");
const hasData = existsSync(path.join(dataDirectory, "databases"));
if (!hasData) {
  console.warn(
    `spider-warehouse-flow.test.ts: skipped, the Spider warehouse data is not at ${dataDirectory} (../shared/data from the repository root)`,
  );
}

async function runFlowCommand(
  register: typeof registerIndexCommand | typeof registerAskCommand,
  argumentsList: string[],
  environment: Record<string, string | undefined>,
) {
  return runCommand(register, argumentsList, { tty: true, environment });
}

describe.skipIf(!hasData)("Spider warehouse: nlq index, then nlq ask with a misspelled value", () => {
  let database: TestDatabase;
  let home: string;
  let environment: Record<string, string | undefined>;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_spider_flow");
    await loadSpiderWarehouse({
      url: database.url,
      dataDirectory,
      only: ["concert_singer", "flight_2", "world_1"],
    });
    home = await mkdtemp(path.join(tmpdir(), "nlq-spider-flow-"));
    environment = {
      NLQ_HOME: home,
      NLQ_MODEL: `scripted:${path.join(repositoryRoot, "fixtures/spider-warehouse-model.json")}`,
      // Three Spider databases are ~100 columns; the full warehouse (4,080) is above the default of 200.
      NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0",
    };
  });

  afterAll(async () => {
    await database?.drop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("indexes with a progress bar, then retrieves the stored spelling and its column for each question", async () => {
    const indexed = await runFlowCommand(registerIndexCommand, ["index", "--url", database.url], environment);
    expect(indexed.exitCode).toBeUndefined();
    // A redrawn bar: counts, percentage, ETA and the table being indexed.
    expect(indexed.stderr).toContain("\r\u001b[2K[####................] 2/10 20% ETA ");
    expect(indexed.stderr).toContain("\r\u001b[2K[####################] 10/10 100% ETA 0s world_1.countrylanguage");
    expect(indexed.stdout).toMatch(/^indexed nlq_spider_flow_\w+: 10 tables, \d+ columns — 10 \(re\)indexed/);

    const cases = [
      {
        question: "What is the population of Rotterdm?",
        value: "Rotterdm → ",
        match: "world_1.city.name = 'Rotterdam'",
        answer: /Rotterdam \| NLD {9}\| 593321/,
      },
      {
        question: "How many singers are from the Netherlnds?",
        value: "Netherlnds → ",
        match: "concert_singer.singer.country = 'Netherlands'",
        answer: /\n 1\n\(1 row\)/,
      },
      {
        question: "How many flights leave from Abrdeen?",
        value: "Abrdeen → ",
        match: "flight_2.airports.city = 'Aberdeen'",
        answer: /\n 21\n\(1 row\)/,
      },
    ];
    for (const testCase of cases) {
      const asked = await runFlowCommand(
        registerAskCommand,
        ["ask", testCase.question, "--url", database.url],
        environment,
      );
      expect(asked.exitCode, asked.stderr).toBeFalsy();
      expect(asked.stderr).toMatch(/… Read the schema: 10 tables, \d+ columns \(from the catalog index\)/);
      // One line for all values, grouped by keyword: `Rotterdm → a = 'x', b = 'y'; Pari → …`.
      const valuesLine = asked.stderr.split("\n").find((line) => line.startsWith("… Matched database values: "));
      const keywordGroup = valuesLine?.split(/: |; /).find((group) => group.startsWith(testCase.value));
      expect(keywordGroup, asked.stderr).toContain(testCase.match);
      expect(asked.stdout).toMatch(testCase.answer);
      expect(asked.stdout).toContain("(scripted replay, not a language model)");
    }
  });
});
