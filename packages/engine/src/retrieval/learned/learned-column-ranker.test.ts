import { describe, expect, it } from "vitest";
import { cosineOnlyLearnedModel } from "../../testing/cosine-only-learned-model";
import type { SchemaColumn } from "../crush/schema-column";
import { LearnedColumnRanker, scoreCandidate } from "./learned-column-ranker";
import { questionTerms, sparseFeatureKeys } from "./learned-features";
import { createQuestionColumnRanking } from "./learned-question-ranking";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";

const columns: SchemaColumn[] = [
  { database: "music", table: "singer", column: "name" },
  { database: "music", table: "singer", column: "age" },
  { database: "music", table: "singer", column: "singer_id" },
  { database: "shop", table: "product", column: "price" },
];

function model(sparse: Record<string, number>): LearnedRetrievalModel {
  return cosineOnlyLearnedModel(sparse, 10);
}

describe("learnt column ranking", () => {
  it("keeps function words in question terms and pairs them with column and table tokens", () => {
    expect(questionTerms("How many of the oldest singers?")).toEqual(["how", "many", "of", "the", "oldest", "singer"]);
    expect(sparseFeatureKeys(["oldest"], { column: ["age"], table: ["singer"] })).toEqual([
      "p:age",
      "c:oldest|age",
      "t:oldest|singer",
    ]);
  });

  it("drops single letters from question terms but keeps single digits", () => {
    expect(questionTerms("The room's price in top 3")).toEqual(["the", "room", "price", "in", "top", "3"]);
  });

  it("gives a run-together column name the words the catalog spells separately elsewhere", () => {
    const catalog: SchemaColumn[] = [
      { database: "inn", table: "rooms", column: "baseprice" },
      { database: "shop", table: "product", column: "base_price" },
    ];
    const ranker = new LearnedColumnRanker(catalog);
    const [rooms] = ranker.candidates(["price"], [1, 0], 1);
    expect(rooms!.column).toBe(0);
    expect(rooms!.sparse).toEqual([
      "p:baseprice",
      "p:base",
      "p:price",
      "c:price|baseprice",
      "c:price|base",
      "c:price|price",
      "t:price|room",
    ]);
  });

  it("lifts a column that shares no letters with the question when the model learnt the association", () => {
    const question = "Who is the oldest singer?";
    const lexical = createQuestionColumnRanking(columns);
    const lexicalTop = lexical.rank(question, 4);
    expect(lexicalTop[0]).not.toBe(1);
    const learnt = createQuestionColumnRanking(columns, model({ "c:oldest|age": 5 }));
    expect(learnt.rank(question, 4)[0]).toBe(1);
    expect(learnt.modelVersion).toBe("test");
  });

  it("re-ranks only the lexical candidates and fills larger budgets in lexical order", () => {
    const ranker = new LearnedColumnRanker(columns, { ...model({ "p:price": 100 }), candidateLimit: 2 });
    const similarities = [0.9, 0.8, 0.7, 0.1];
    expect(ranker.rank(["x"], similarities, 4)).toEqual([0, 1, 2, 3]);
    const wide = new LearnedColumnRanker(columns, model({ "p:price": 100 }));
    expect(wide.rank(["x"], similarities, 4)).toEqual([3, 0, 1, 2]);
  });

  it("adds a database's evidence to the learnt score of each of its candidate columns", () => {
    const ranker = new LearnedColumnRanker(columns, model({}));
    const similarities = [0.9, 0.8, 0.7, 0.6];
    expect(ranker.rank(["x"], similarities, 2)).toEqual([0, 1]);
    expect(ranker.rank(["x"], similarities, 2, new Map([["shop", 0.5]]))).toEqual([3, 0]);
    expect(ranker.rank(["x"], similarities, 2, new Map([["unknown", 5]]))).toEqual([0, 1]);
  });

  it("raises a value's whole database, not only the value's column, when value hits are given", () => {
    const catalog = [...columns, { database: "shop", table: "product", column: "label" }];
    const ranking = createQuestionColumnRanking(catalog, model({}));
    const question = "singer name age";
    const valueHits = [{ keyword: "Widget", column: 4, similarity: 1 }];
    const price = (ranked: number[]) => ranked.indexOf(3);
    expect(price(ranking.rank(question, 5, { valueHits }))).toBe(1);
    expect(price(ranking.rank(question, 5, { valueHits, valueDatabaseEvidence: { weight: 0 } }))).toBe(4);
  });

  it("ranks by the same scores as scoreCandidate over the candidates' feature keys", () => {
    const weights = { "p:name": 0.3, "c:oldest|age": 2, "t:singer|singer": 0.7, "c:price|price": -0.4, "p:id": -1 };
    const ranker = new LearnedColumnRanker(columns, model(weights));
    const terms = questionTerms("What is the price of the oldest singer by name?");
    const similarities = [0.2, 0.1, 0.3, 0.25];
    const scored = ranker
      .candidates(terms, similarities, 4)
      .map((candidate) => ({ column: candidate.column, score: scoreCandidate(model(weights), candidate) }))
      .sort((left, right) => right.score - left.score);
    expect(ranker.rank(terms, similarities, 4)).toEqual(scored.map((each) => each.column));
    expect(scored[0]!.column).toBe(1);
  });

  it("gives each candidate its table's and database's best cosine relative to the catalog's best", () => {
    const ranker = new LearnedColumnRanker(columns);
    const [first, , , last] = ranker.candidates(["x"], [0.5, 0.25, 0, 0.1], 4);
    const musicSize = Math.log1p(3) / 10;
    expect(first!.dense).toEqual([0.5, 1, 1, 1, 0, 0, 0, 0, 0, 0, musicSize, musicSize]);
    expect(last!.column).toBe(2);
    expect(last!.dense).toEqual([0, 0, 1, 1, 1, 0, 0, 0, 0, 0, musicSize, musicSize]);
  });

  it("gives each candidate the share of the question's schema words its database and table name", () => {
    const ranker = new LearnedColumnRanker(columns);
    const terms = questionTerms("What is the price of the oldest singer?");
    const byColumn = new Map(ranker.candidates(terms, [0.5, 0.25, 0, 0.1], 4).map((each) => [each.column, each.dense]));
    const coverage = (column: number) => byColumn.get(column)!.slice(5, 10);
    // "singer" and "price" each name something in one of the two databases: equal weights, half the share each
    expect(coverage(0)).toEqual([0.5, 1, 1, 0.5, 1]);
    expect(coverage(3)).toEqual([0.5, 1, 1, 0.5, 1]);
    const music = ranker.candidates(questionTerms("singer age"), [0.5, 0.25, 0, 0.1], 4);
    const shop = music.find((each) => each.column === 3)!;
    expect(shop.dense.slice(5, 8)).toEqual([0, 0, 0.5]);
  });
});
