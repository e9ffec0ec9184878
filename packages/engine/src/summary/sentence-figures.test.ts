import { describe, expect, it } from "vitest";
import { statedFigures, unsupportedFigures } from "./sentence-figures";

const evidence = (
  rows: Array<Array<string | null>>,
  question = "how many customers are there?",
  truncated = false,
) => ({
  question,
  rows,
  truncated,
});

describe("the figures an answer sentence states", () => {
  it("reads numbers as people write them: thousands separators, decimals, percents, multipliers, number words", () => {
    expect(
      statedFigures("Hearth & Harbor has 1,500 customers; 12.5% of them spent $1.2 million in twelve months.").map(
        ({ value, percent }) => [value, percent],
      ),
    ).toEqual([
      [1500, false],
      [12.5, true],
      [1_200_000, false],
      [12, false],
    ]);
    expect(statedFigures("Customer top5 ordered nothing.")).toEqual([]);
  });

  it("flags a count the role's rows do not hold: 1,500 customers said to a role that sees 157", () => {
    expect(unsupportedFigures("Hearth & Harbor has 1,500 customers.", evidence([["157"]])).map((f) => f.text)).toEqual([
      "1,500",
    ]);
    expect(unsupportedFigures("Hearth & Harbor has 1,500 customers.", evidence([["1500"]]))).toEqual([]);
  });

  it("accepts values rounded as written, shares as percents, row counts, sums and the question's own numbers", () => {
    const stores = [
      ["Berlin", "40617.63", "0.123"],
      ["Hamburg", "20000.00", "0.2"],
    ];
    const question = "what are the top 2 stores by revenue in 2025?";
    expect(
      unsupportedFigures(
        "The top 2 stores in 2025 made 40,617.6 and about 20,000 dollars, 12.3% and 20% of orders; 60,618 in total over two stores.",
        evidence(stores, question),
      ),
    ).toEqual([]);
    expect(unsupportedFigures("Berlin made 41,900.", evidence(stores, question)).map((f) => f.text)).toEqual([
      "41,900",
    ]);
  });

  it("takes the numbers inside text cells (a date's year and day) and no count from rows a cap cut", () => {
    expect(unsupportedFigures("The data ends on 19 November 2026.", evidence([["2026-11-19"]]))).toEqual([]);
    const cut = evidence(
      Array.from({ length: 3 }, (_, index) => [`name ${index}`]),
      "who are the customers?",
      true,
    );
    expect(unsupportedFigures("There are three customers.", cut).map((f) => f.text)).toEqual(["three"]);
  });
});
