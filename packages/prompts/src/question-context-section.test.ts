import { describe, expect, it } from "vitest";
import { divideAndConquerPrompt } from "./divide-and-conquer-prompt";
import { fixCandidatePrompt } from "./fix-candidate-prompt";
import { generateCandidatePrompt } from "./generate-candidate-prompt";
import { generateFromExamplesPrompt } from "./generate-from-examples-prompt";
import { queryPlanPrompt } from "./query-plan-prompt";
import { renderQuestionContext } from "./question-context-section";
import { selectCandidatePrompt } from "./select-candidate-prompt";

const questionContext = {
  knowledge: [
    {
      kind: "metric",
      name: "net revenue",
      text: "Revenue net of refunds,\nin dollars.",
      sql: "sum(amount_cents) / 100.0",
    },
    { kind: "rule", name: "test accounts", text: "Exclude test accounts.", sql: "is_test = false" },
    { kind: "term", name: "active customer", text: "A customer with an order in the last 90 days." },
  ],
  date: "2026-12-01",
  timeZone: "Europe/Lisbon",
};

describe("renderQuestionContext", () => {
  it("lists the retrieved definitions, one line each, then the session's date and time zone", () => {
    expect(renderQuestionContext(questionContext)).toMatchInlineSnapshot(`
      "Definitions of this database's business, written by its users (they decide what the question's terms mean; apply those that concern the question):
      - Metric "net revenue": Revenue net of refunds, in dollars. SQL: sum(amount_cents) / 100.0
      - Rule "test accounts": Exclude test accounts. SQL: is_test = false
      - Term "active customer": A customer with an order in the last 90 days.

      Today is 2026-12-01 in the session's time zone (Europe/Lisbon). Resolve relative dates ("last month", "this year", "the past 30 days") from it, with the database's own date functions (CURRENT_DATE, now()).

      "
    `);
  });

  it("leaves out a name the text opens with, as an imported glossary line's", () => {
    const lines = renderQuestionContext({
      knowledge: [
        {
          kind: "rule",
          name: "To get the success rate of transactions per customer, join customer and… (2)",
          text: "To get the success rate of transactions per customer, join customer and transaction tables.",
        },
        { kind: "term", name: "TAC (5)", text: "TAC = Total Active Customers who joined on or after January 1, 2023" },
        { kind: "term", name: "TACO", text: "TAC = Total Active Customers" },
        { kind: "term", name: "TAC", text: "TACO = Total Active Customer Orders" },
      ],
    }).split("\n");
    expect(lines.slice(1, 5)).toEqual([
      "- Rule: To get the success rate of transactions per customer, join customer and transaction tables.",
      "- Term: TAC = Total Active Customers who joined on or after January 1, 2023",
      '- Term "TACO": TAC = Total Active Customers',
      '- Term "TAC": TACO = Total Active Customer Orders',
    ]);
  });

  it("is empty without knowledge or date, and says only what it has", () => {
    expect(renderQuestionContext(undefined)).toBe("");
    expect(renderQuestionContext({ knowledge: [] })).toBe("");
    expect(renderQuestionContext({ date: "2026-12-01" })).toMatchInlineSnapshot(`
      "Today is 2026-12-01. Resolve relative dates ("last month", "this year", "the past 30 days") from it, with the database's own date functions (CURRENT_DATE, now()).

      "
    `);
  });

  it("reaches every generator's, the fixer's and the selection agent's prompt, just before the question", () => {
    const base = { schema: "CREATE TABLE orders (id integer);", question: "What was net revenue last month?" };
    const prompts = {
      "one-shot": generateCandidatePrompt({ ...base, questionContext }),
      "divide-and-conquer": divideAndConquerPrompt({ ...base, questionContext }),
      "query-plan": queryPlanPrompt({ ...base, questionContext }),
      "from-examples": generateFromExamplesPrompt({ ...base, syntheticExamples: [], questionContext }),
      fixer: fixCandidatePrompt({ ...base, sql: "SELECT 1", issue: { kind: "empty" }, questionContext }),
      selector: selectCandidatePrompt({
        ...base,
        candidateA: { sql: "SELECT 1", result: "1" },
        candidateB: { sql: "SELECT 2", result: "2" },
        questionContext,
      }),
    };
    const section = renderQuestionContext(questionContext);
    for (const [name, prompt] of Object.entries(prompts)) {
      const at = prompt.indexOf(section);
      expect(at, name).toBeGreaterThan(prompt.indexOf(base.schema));
      expect(prompt.indexOf(base.question, at), name).toBeGreaterThan(at);
      expect(prompt.slice(0, at), name).not.toContain(base.question);
    }
    // Without a context, nothing is added.
    expect(generateCandidatePrompt(base)).not.toContain("Definitions of this database");
  });
});
