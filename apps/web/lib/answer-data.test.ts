import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { answerData } from "./answer-data";

const answer: Answer = {
  question: "How many products are there?",
  sql: "SELECT count(*) AS products FROM products",
  result: {
    fields: [{ name: "products", dataTypeId: 20, dataTypeSize: 8, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["3"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "scripted:/srv/nlq/fixtures/demo-model.json", scripted: true },
  summary: { sentence: "There are 3 products.", model: "scripted:/srv/nlq/fixtures/demo-model.json", scripted: true },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
};

describe("answerData", () => {
  it("sends a scripted model's fixture as its file name, never the server path", () => {
    const data = answerData(answer, 0);
    expect(data.model.id).toBe("scripted:demo-model.json");
    expect(data.summary?.model).toBe("scripted:demo-model.json");
    expect(JSON.stringify(data)).not.toContain("/srv/");
  });

  it("keeps a language model's id and a relative fixture path as configured", () => {
    expect(answerData({ ...answer, model: { id: "openai:gpt-4o-mini", scripted: false } }, 0).model.id).toBe(
      "openai:gpt-4o-mini",
    );
    const relative = { id: "scripted:fixtures/demo-model.json", scripted: true };
    expect(answerData({ ...answer, model: relative }, 0).model.id).toBe("scripted:fixtures/demo-model.json");
  });

  it("says which knowledge entries reached the prompts, by id, kind and name; nothing when none did", () => {
    const used = [{ id: "e1", kind: "metric" as const, name: "net revenue" }];
    expect(answerData({ ...answer, knowledgeUsed: used }, 0).knowledgeUsed).toEqual(used);
    expect(answerData({ ...answer, knowledgeUsed: [] }, 0)).not.toHaveProperty("knowledgeUsed");
    expect(answerData(answer, 0)).not.toHaveProperty("knowledgeUsed");
  });
});
