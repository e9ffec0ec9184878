import { describe, expect, it } from "vitest";
import { findReadingsOutputSchema, findReadingsPrompt } from "./find-readings-prompt";

const schema = `CREATE TABLE pets (
  pet_id integer NOT NULL,
  mass real,
  body_weight real
);`;

describe("find-readings prompt", () => {
  it("shows the schema, the question and the hint, and asks for phrases with their meanings", () => {
    const prompt = findReadingsPrompt({ question: " What is the average weight of pets? ", schema, hint: "" });
    expect(prompt).toContain(schema);
    expect(prompt).toContain("Question: What is the average weight of pets?\nHint: none");
    expect(prompt).toContain('Most questions have no such phrase; then answer {"phrases": []}.');
    expect(prompt).toContain('"meanings": ["<table.column, or table>", ...]');
  });

  it("shows the definitions retrieved for the question, which settle a term", () => {
    const prompt = findReadingsPrompt({
      question: "What is the NPI for each year?",
      schema,
      questionContext: {
        knowledge: [{ kind: "term", name: "NPI", text: "New patients are patients starting their first treatment" }],
      },
    });
    expect(prompt).toContain('- Term "NPI": New patients are patients starting their first treatment');
    expect(prompt.indexOf("Definitions of this database")).toBeLessThan(prompt.indexOf("Question: What is the NPI"));
    expect(findReadingsPrompt({ question: "q", schema })).not.toContain("Definitions of this database");
  });

  it("reads a reply with phrases, and an empty one", () => {
    expect(findReadingsOutputSchema.parse({ phrases: [] })).toEqual({ phrases: [] });
    const reply = {
      phrases: [{ phrase: "weight", reason: "both are weights", meanings: ["pets.mass", "pets.body_weight"] }],
    };
    expect(findReadingsOutputSchema.parse(reply)).toEqual(reply);
    expect(() => findReadingsOutputSchema.parse({ phrases: [{ phrase: "weight" }] })).toThrow();
  });
});
