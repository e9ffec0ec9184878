import { describe, expect, it } from "vitest";
import {
  parseHallucinatedSchema,
  schemaHallucinationOutputSchema,
  schemaHallucinationPrompt,
  spiderSchemaHallucinationExamples,
} from "./schema-hallucination-prompt";

describe("schema hallucination prompt", () => {
  it("renders the few-shot prompt", () => {
    expect(
      schemaHallucinationPrompt({
        question: "Which country had the gas station that sold the most expensive product?",
        examples: spiderSchemaHallucinationExamples.slice(0, 2),
      }),
    ).toMatchInlineSnapshot(`
      "Hallucinate a minimal schema of a relational database that can be used to answer the natural language question. Here are some examples:

      Question: Count the number of members in the Bootup Baltimore Club older than 18.
      Schema: {"tables":["Club(Name, id, description, location)","member_of_club(club id, student id)","Student(id, age)"]}

      Question: What are the names of all stations with a latitude smaller than 37.5?
      Schema: {"tables":["Station(Name, Latitude)"]}

      Question: Which country had the gas station that sold the most expensive product?
      Schema:"
    `);
  });

  it("uses the BIRD examples by default and appends a hint", () => {
    const prompt = schemaHallucinationPrompt({ question: "How many posts?", hint: "posts refers to posts table" });
    expect(prompt).toContain("truck(truck_id, make)");
    expect(prompt).toContain("Question: How many posts? (posts refers to posts table)\nSchema:");
  });

  it("validates the model's output", () => {
    expect(schemaHallucinationOutputSchema.safeParse({ tables: ["Posts(post_id, title)"] }).success).toBe(true);
    // The Table(...) shape is not a schema pattern (not every provider accepts one): parseHallucinatedSchema reads it.
    expect(schemaHallucinationOutputSchema.safeParse({ tables: ["just words"] }).success).toBe(true);
    expect(schemaHallucinationOutputSchema.safeParse({ schema: [] }).success).toBe(false);
  });

  it("parses Table(col, col) strings into table.column probes", () => {
    expect(
      parseHallucinatedSchema([
        "Posts(post_id, title, user_id)",
        "Users(user_id , username)",
        "posts(title)",
        "Empty()",
      ]),
    ).toEqual([
      { table: "Posts", column: "post_id" },
      { table: "Posts", column: "title" },
      { table: "Posts", column: "user_id" },
      { table: "Users", column: "user_id" },
      { table: "Users", column: "username" },
      { table: "Empty", column: "" },
    ]);
    expect(parseHallucinatedSchema(["Student(id, age", "loose text"])).toEqual([
      { table: "Student", column: "id" },
      { table: "Student", column: "age" },
      { table: "loose text", column: "" },
    ]);
  });
});
