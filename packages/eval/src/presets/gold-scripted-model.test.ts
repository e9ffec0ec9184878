import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createGoldScriptedModel, goldScriptedAnswer, perturbedAlias, perturbGold } from "./gold-scripted-model";

const gold = 'SELECT COUNT(*) FROM "course"';
const script = {
  sql: gold,
  goldSchema: { tables: ["college_3.course"], columns: new Map([["college_3.course", ["cid", "credits"]]]) },
};
const question = "How many courses are there in total?";

describe("goldScriptedAnswer", () => {
  it("answers every SQL-writing step with the gold, except the third query-plan sample, which doubles its rows", () => {
    for (const step of ["generate-candidate", "generate-divide-and-conquer", "generate-from-examples"])
      expect(goldScriptedAnswer(step, 2, question, script, "")).toMatchObject({ sql: gold });
    expect(goldScriptedAnswer("generate-query-plan", 1, question, script, "")).toMatchObject({ sql: gold });
    expect(goldScriptedAnswer("generate-query-plan", 2, question, script, "")).toMatchObject({
      sql: `SELECT * FROM (${gold}) AS gold_result UNION ALL SELECT * FROM (${gold}) AS ${perturbedAlias}`,
    });
    expect(goldScriptedAnswer("fix-candidate", 0, question, script, "")).toMatchObject({ sql: gold });
  });

  it("answers selection and CRUSH's hallucination with the gold tables and columns", () => {
    expect(goldScriptedAnswer("hallucinate-schema", 0, question, script, "")).toEqual({
      tables: ["course(cid, credits)"],
    });
    expect(goldScriptedAnswer("select-tables", 0, question, script, "")).toMatchObject({
      table_names: ["college_3.course"],
    });
    expect(goldScriptedAnswer("select-columns", 0, question, script, "")).toMatchObject({
      tables: [{ table: "college_3.course", columns: ["cid", "credits"] }],
    });
    expect(goldScriptedAnswer("filter-column", 0, question, script, "")).toEqual({ columns: [] });
  });

  it("has the pairwise agent pick the candidate that is not the perturbed one, in either order", () => {
    const prompt = (first: string, second: string) =>
      `Question\n******\nCandidate A\n${first}\nExecution result\n1\n******\nCandidate B\n${second}\nExecution result\n2`;
    expect(goldScriptedAnswer("select-candidate", 0, question, script, prompt(gold, perturbGold(gold)))).toMatchObject({
      answer: "A",
    });
    expect(goldScriptedAnswer("select-candidate", 0, question, script, prompt(perturbGold(gold), gold))).toMatchObject({
      answer: "B",
    });
    expect(() => goldScriptedAnswer("generate-unit-tests", 0, question, script, "")).toThrow(/no answer for step/);
  });

  it("answers the plain-language sentence with a fixed one that says it is scripted", () => {
    expect(goldScriptedAnswer("summarize-answer", 0, question, script, "")).toEqual({
      answer: "Scripted from the gold SQL: the result answers the question.",
    });
  });
});

describe("createGoldScriptedModel", () => {
  it("is a scripted model keyed by the question the pipeline passes, failing for a question it has no gold for", async () => {
    const resolved = createGoldScriptedModel(new Map([[question, script]]));
    expect(resolved).toMatchObject({ id: "scripted:gold-from-train-queries", scripted: true });
    const model = resolved.model as LanguageModelV3;
    const call = (asked: string) =>
      model.doGenerate({
        prompt: [{ role: "user", content: [{ type: "text", text: asked }] }],
        providerOptions: { nlq: { step: "generate-candidate", question: asked, sample: 0 } },
      });
    const result = await call(question);
    expect(result.content).toEqual([
      { type: "text", text: JSON.stringify({ reasoning: "scripted: the gold SQL", sql: gold }) },
    ]);
    await expect(call("another question")).rejects.toThrow(/no gold for question/);
  });
});
