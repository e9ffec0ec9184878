import {
  createQuestionColumnRanking,
  learnedModelToJson,
  parseLearnedRetrievalModel,
  type SchemaColumn,
} from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { fitLearnedModel, type TrainingSet } from "./fit-learned-model";
import { goldColumnKeys } from "./sql-gold-columns";
import { heldOutDatabases } from "./training-data";

const columns: SchemaColumn[] = [
  { database: "music", table: "singer", column: "name" },
  { database: "music", table: "singer", column: "age" },
  { database: "music", table: "singer", column: "birth_year" },
  { database: "zoo", table: "animal", column: "name" },
  { database: "zoo", table: "animal", column: "age" },
  { database: "zoo", table: "animal", column: "species" },
];

const question = (id: string, text: string, gold: string[]) => ({
  id,
  database: gold[0]!.split(".")[0]!,
  question: text,
  gold,
  hallucinated: [],
});

const trainingSet: TrainingSet = {
  columns,
  questions: [
    question("1", "Who is the oldest singer?", ["music.singer.age"]),
    question("2", "Which animal is the oldest?", ["zoo.animal.age"]),
    question("3", "List the oldest singers first", ["music.singer.age"]),
    question("4", "When was each singer born?", ["music.singer.birth_year"]),
    question("5", "Singers born after 1990", ["music.singer.birth_year"]),
    question("6", "Show the oldest animals", ["zoo.animal.age"]),
  ],
};

describe("retrieval training", () => {
  it("learns associations from a few rows (oldest ↔ age, born ↔ birth) and is deterministic", () => {
    const options = { version: "tiny-v1", epochs: 20, learningRate: 0.2, minimumCount: 1, seed: 3 };
    const model = fitLearnedModel([trainingSet], options);
    expect(model.sparse.get("c:oldest|age")).toBeGreaterThan(0);
    const ranking = createQuestionColumnRanking(columns, model);
    expect(model.sparse.get("c:born|birth")).toBeGreaterThan(0);
    const bornQuestion = "Which singers were born in Paris?";
    expect(ranking.rank(bornQuestion, 1)).toEqual([2]);
    expect(createQuestionColumnRanking(columns).rank(bornQuestion, 1)).not.toEqual([2]);
    const again = fitLearnedModel([trainingSet], options);
    expect(JSON.stringify(learnedModelToJson(again))).toBe(JSON.stringify(learnedModelToJson(model)));
    expect(parseLearnedRetrievalModel(learnedModelToJson(model)).version).toBe("tiny-v1");
  });

  it("extracts gold columns from MySQL-dialect SQL: aliases, backticks, strings and COUNT(*) ignored", () => {
    const sql =
      "SELECT T1.`Name`, count(*) FROM singer AS T1 JOIN animal AS T2 ON T1.age = T2.age WHERE T2.species = 'name' GROUP BY T1.name";
    expect(goldColumnKeys(columns, sql).sort()).toEqual([
      "music.singer.age",
      "music.singer.name",
      "zoo.animal.age",
      "zoo.animal.species",
    ]);
    expect(goldColumnKeys(columns, "SELECT count(*) FROM singer")).toEqual([]);
  });

  it("holds out whole databases, the same ones for the same seed", () => {
    const databases = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const first = heldOutDatabases(databases, 0.2, 7);
    expect(first.size).toBe(2);
    expect(heldOutDatabases([...databases].reverse(), 0.2, 7)).toEqual(first);
  });
});
