import { describe, expect, it } from "vitest";
import { describeKnowledgeUsed } from "./describe-knowledge-used";

describe("describeKnowledgeUsed", () => {
  it("names each entry that reached the prompts by kind and name, and nothing when none did", () => {
    expect(
      describeKnowledgeUsed([
        { id: "1", kind: "metric", name: "net revenue" },
        { id: "2", kind: "description", name: "shop.orders.total_cents" },
      ]),
    ).toBe("used 2 definitions: metric «net revenue», description «shop.orders.total_cents»");
    expect(describeKnowledgeUsed([{ id: "1", kind: "rule", name: "fiscal year" }])).toBe(
      "used 1 definition: rule «fiscal year»",
    );
    expect(describeKnowledgeUsed([])).toBeUndefined();
    expect(describeKnowledgeUsed(undefined)).toBeUndefined();
  });
});
