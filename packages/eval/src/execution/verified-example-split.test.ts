import { describe, expect, it } from "vitest";
import type { GoldQuestion } from "./question-set";
import { exampleSql, splitForVerifiedExamples, verifiedExamplesFrom } from "./verified-example-split";

const question = (id: string, text: string, schema?: string, gold = `SELECT ${id}`): GoldQuestion => ({
  id,
  question: text,
  gold,
  category: "all",
  ...(schema === undefined ? {} : { schema }),
});

describe("splitForVerifiedExamples", () => {
  const questions = [
    ...Array.from({ length: 7 }, (_, index) => question(`a${index}`, `question ${index}`, "a")),
    ...Array.from({ length: 4 }, (_, index) => question(`b${index}`, `question ${index}`, "b")),
    question("c0", "lonely"),
  ];

  it("halves each schema (rounded down), keeps file order and puts every question on exactly one side", () => {
    const split = splitForVerifiedExamples(questions, 1);
    const ids = (list: readonly GoldQuestion[], prefix: string) =>
      list.map((item) => item.id).filter((id) => id.startsWith(prefix));
    expect([ids(split.examples, "a").length, ids(split.examples, "b").length, ids(split.examples, "c").length]).toEqual(
      [3, 2, 0],
    );
    expect([...split.examples, ...split.heldOut].map((item) => item.id).sort()).toEqual(
      questions.map((item) => item.id).sort(),
    );
    const order = (list: readonly GoldQuestion[]) => list.map((item) => questions.indexOf(item));
    expect(order(split.heldOut)).toEqual([...order(split.heldOut)].sort((first, second) => first - second));
  });

  it("is the same for the same seed and differs for another", () => {
    const ids = (seed: number) => splitForVerifiedExamples(questions, seed).examples.map((item) => item.id);
    expect(ids(7)).toEqual(ids(7));
    expect([2, 3, 4, 5, 6].some((seed) => ids(seed).join() !== ids(7).join())).toBe(true);
  });
});

describe("exampleSql", () => {
  it("takes the first alternative with every listed column", () => {
    expect(exampleSql("SELECT {id,name} FROM items ORDER BY id;SELECT name FROM items")).toBe(
      "SELECT id, name FROM items ORDER BY id",
    );
    expect(exampleSql("SELECT count(*) FROM items;")).toBe("SELECT count(*) FROM items");
  });
});

describe("verifiedExamplesFrom", () => {
  it("gives a question the similar example pairs of its own schema only", () => {
    const examplesFor = verifiedExamplesFrom([
      question("1", "how many items are there?", "shop", "SELECT count(*) FROM items;SELECT count(id) FROM items"),
      question("2", "how many items are there?", "other"),
      question("3", "average price of the lamps", "shop"),
    ]);
    expect(examplesFor(question("4", "How many items do we have?", "shop"))).toEqual([
      { question: "how many items are there?", sql: "SELECT count(*) FROM items" },
    ]);
    expect(examplesFor(question("5", "which suppliers ship late?", "shop"))).toEqual([]);
  });
});
