import { describe, expect, it } from "vitest";
import { escapedStringLiteral, valueProbeKey, valueVisibilityStatements } from "./value-visibility-statement";

describe("valueVisibilityStatements", () => {
  it("writes one statement per table, one EXISTS per column and match kind, duplicates once", () => {
    const statements = valueVisibilityStatements([
      { schema: "public", table: "account", column: "label", value: "Own" },
      { schema: "public", table: "account", column: "label", value: "Own" },
      { schema: "public", table: "account", column: "label", value: "Long label", match: "prefix" },
      { schema: "public", table: "account", column: "owner", value: "it's" },
      { schema: "Sales", table: 'odd"name', column: "label", value: "x" },
    ]);
    expect(statements.map((statement) => [statement.table, statement.probes.length])).toEqual([
      ["public.account", 3],
      ['Sales.odd"name', 1],
    ]);
    expect(statements[0]!.sql).toBe(
      `SELECT probe.position FROM (VALUES (0, E'Own')) AS probe(position, value) WHERE EXISTS (SELECT 1 FROM "public"."account" WHERE "label"::pg_catalog.text OPERATOR(pg_catalog.=) probe.value)` +
        ` UNION ALL SELECT probe.position FROM (VALUES (1, E'Long label')) AS probe(position, value) WHERE EXISTS (SELECT 1 FROM "public"."account" WHERE pg_catalog.starts_with("label"::pg_catalog.text, probe.value))` +
        ` UNION ALL SELECT probe.position FROM (VALUES (2, E'it''s')) AS probe(position, value) WHERE EXISTS (SELECT 1 FROM "public"."account" WHERE "owner"::pg_catalog.text OPERATOR(pg_catalog.=) probe.value)`,
    );
    expect(statements[1]!.sql).toContain(`FROM "Sales"."odd""name"`);
    expect(valueVisibilityStatements([])).toEqual([]);
  });

  it("quotes literals as E'' strings with backslashes and quotes doubled", () => {
    expect(escapedStringLiteral(String.raw`\' ) AS x; COMMIT; --`)).toBe(String.raw`E'\\'' ) AS x; COMMIT; --'`);
    expect(escapedStringLiteral("plain")).toBe("E'plain'");
  });

  it("keys a probe by column, match kind and value", () => {
    const probe = { schema: "public", table: "t", column: "c", value: "v" };
    expect(valueProbeKey(probe)).toBe(valueProbeKey({ ...probe, match: "exact" }));
    expect(valueProbeKey(probe)).not.toBe(valueProbeKey({ ...probe, match: "prefix" }));
    expect(valueProbeKey(probe)).not.toBe(valueProbeKey({ ...probe, column: "d" }));
  });
});
