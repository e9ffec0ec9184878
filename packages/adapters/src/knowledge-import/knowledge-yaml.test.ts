import { describe, expect, it } from "vitest";
import { KnowledgeImportError } from "./knowledge-import-error";
import { formatKnowledgeYaml, parseKnowledgeYaml } from "./knowledge-yaml";

const file = `version: 1
entries:
  - kind: term
    name: active customer
    text: A customer with an order in the last 90 days.
    references: [shop.customers, shop.orders]
  - kind: metric
    name: net revenue
    text: "Order totals minus refunds, in euros: the finance team's figure."
    sql: sum(total_cents - refunded_cents) / 100.0
    references: [shop.orders.total_cents, shop.orders.refunded_cents]
  - kind: description
    name: shop.orders.total_cents
    text: Order total in euro cents, VAT included.
  - kind: rule
    name: exclude test accounts
    text: Leave out the QA team's accounts from every figure.
    sql: is_test = false
    references: [shop.customers.is_test]
`;

describe("knowledge YAML", () => {
  it("reads terms, metrics, descriptions and rules; a description refers to its own element", () => {
    const entries = parseKnowledgeYaml(file, "glossary.yaml");
    expect(entries.map((entry) => [entry.kind, entry.name, entry.references])).toEqual([
      ["term", "active customer", ["shop.customers", "shop.orders"]],
      ["metric", "net revenue", ["shop.orders.total_cents", "shop.orders.refunded_cents"]],
      ["description", "shop.orders.total_cents", ["shop.orders.total_cents"]],
      ["rule", "exclude test accounts", ["shop.customers.is_test"]],
    ]);
    expect(entries[1]?.sql).toBe("sum(total_cents - refunded_cents) / 100.0");
  });

  it("writes what it reads back unchanged (round trip)", () => {
    const entries = parseKnowledgeYaml(file, "glossary.yaml");
    const written = formatKnowledgeYaml(entries);
    expect(parseKnowledgeYaml(written, "export.yaml")).toEqual(entries);
    expect(formatKnowledgeYaml(parseKnowledgeYaml(written, "export.yaml"))).toBe(written);
    // Readings are made by answering, not kept in the file.
    expect(
      formatKnowledgeYaml([{ kind: "reading", name: "name", text: '"name" means singer.stage_name.' }]),
    ).not.toContain("reading");
  });

  it("names the file and the path of a wrong field", () => {
    const wrongKind = file.replace("kind: rule", "kind: policy");
    expect(() => parseKnowledgeYaml(wrongKind, "glossary.yaml")).toThrowError(
      /^glossary\.yaml: \$\.entries\[3\]\.kind: /,
    );
    const typo = file.replace("    references: [shop.customers, shop.orders]", "    refs: [shop.customers]");
    expect(() => parseKnowledgeYaml(typo, "glossary.yaml")).toThrowError(/^glossary\.yaml: \$\.entries\[0\]: .*refs/);
    const missing = file.replace("    text: Order total in euro cents, VAT included.\n", "");
    expect(() => parseKnowledgeYaml(missing, "g.yaml")).toThrowError(/^g\.yaml: \$\.entries\[2\]\.text: /);
    let error: unknown;
    try {
      parseKnowledgeYaml("entries: [\n  - : :", "bad.yaml");
    } catch (thrown) {
      error = thrown;
    }
    expect(KnowledgeImportError.isInstance(error)).toBe(true);
    expect((error as KnowledgeImportError).message).toMatch(/^bad\.yaml: \$: not YAML: /);
  });
});
