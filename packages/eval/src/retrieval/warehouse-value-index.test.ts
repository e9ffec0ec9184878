import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCatalogEmbeddingModel } from "@nlq/engine";
import { cosineOnlyLearnedModel } from "@nlq/engine/testing";
import { afterAll, describe, expect, it } from "vitest";
import { readRetrievalCorpus } from "./retrieval-benchmark-data";
import { runRetrievalBenchmark } from "./run-retrieval-benchmark";
import { buildWarehouseValueIndex, parseWarehouseSchema } from "./warehouse-value-index";

const fixtures = join(import.meta.dirname, "fixtures");
const racingSchema = `-- Dialect: mysql | Database: racing | Table Count: 2

CREATE TABLE \`racing\`.\`drivers\` (
    \`driverId\` INT,
    \`surname\` TEXT,
    \`nationality\` TEXT,
    PRIMARY KEY (\`driverId\`)
);

CREATE TABLE \`racing\`.\`results\` (
    \`driverId\` INT,
    \`points\` REAL,
    FOREIGN KEY (\`driverId\`) REFERENCES \`racing\`.\`drivers\` (\`driverId\`)
);
`;
const warehouse = mkdtempSync(join(tmpdir(), "nlq-warehouse-"));
mkdirSync(join(warehouse, "databases", "racing", "data"), { recursive: true });
writeFileSync(join(warehouse, "databases", "racing", "schema.sql"), racingSchema);
writeFileSync(
  join(warehouse, "databases", "racing", "data", "drivers.csv"),
  "driverId,surname,nationality\n1,Prost,French\n2,Senna,Brazilian\n3,Alesi,French\n",
);
writeFileSync(join(warehouse, "databases", "racing", "data", "results.csv"), "driverId,points\n1,9\n2,6\n");
afterAll(() => rmSync(warehouse, { recursive: true, force: true }));

describe("warehouse value index", () => {
  it("parses types and keys from the warehouse DDL", () => {
    const drivers = parseWarehouseSchema(racingSchema).get("drivers")!;
    expect(drivers.get("driverid")).toMatchObject({ dataType: "int", isPrimaryKey: true });
    expect(drivers.get("nationality")).toMatchObject({ dataType: "text", isPrimaryKey: false });
    expect(parseWarehouseSchema(racingSchema).get("results")!.get("driverid")!.isForeignKey).toBe(true);
  });

  it("indexes the corpus's text columns only, under the corpus's names", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    const { index, columns, values } = await buildWarehouseValueIndex(warehouse, corpus);
    expect(columns).toBe(2);
    expect(values).toBe(5);
    expect(index.search({ keyword: "french", readableColumns: "all" })[0]).toMatchObject({
      column: { schema: "racing", table: "drivers", column: "nationality" },
      value: "French",
    });
  });

  it("value-aware retrieval lifts the column holding the value the question names", async () => {
    const corpus = await readRetrievalCorpus(join(fixtures, "shop.corpus.jsonl"));
    const questions = [
      {
        id: "p",
        question: "Points scored by Prost?",
        evidence: "",
        gold: ["racing.drivers.surname"],
        hallucinated: [],
      },
    ];
    const learnedModel = cosineOnlyLearnedModel({});
    const { index } = await buildWarehouseValueIndex(warehouse, corpus);
    const result = await runRetrievalBenchmark({
      corpus,
      questions,
      embeddingModel: createCatalogEmbeddingModel(corpus),
      modes: ["question+learned", "question+learned+values"],
      budgets: [1],
      learnedModel,
      valueIndex: index,
    });
    expect(result.recall["question+learned"]?.["1"]).toBe(0);
    expect(result.recall["question+learned+values"]?.["1"]).toBe(1);
  });
});
