import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { exampleLiterals } from "./example-literals";

beforeAll(() => loadSqlParser());

function probesOf(sql: string) {
  const literals = exampleLiterals(sql);
  if (!literals.verifiable) throw new Error(`unverifiable: ${literals.reason}`);
  return literals.probes.map((probe) =>
    [probe.table.schema, probe.table.name, probe.column, probe.columnFunction, probe.match, probe.value].filter(
      (part) => part !== undefined,
    ),
  );
}

describe("exampleLiterals", () => {
  it("finds the values compared with a column, through aliases, joins and subqueries", () => {
    expect(probesOf("SELECT count(*) FROM customers c WHERE c.email = 'janne@web.example'")).toEqual([
      ["customers", "email", "equal", "janne@web.example"],
    ]);
    expect(
      probesOf(
        "SELECT o.id FROM sales.orders o JOIN customers AS c ON c.id = o.customer_id AND c.city IN ('Oslo', 'Bergen') WHERE o.status <> 'cancelled'::text AND o.id = 4711",
      ),
    ).toEqual([
      ["customers", "city", "equal", "Oslo"],
      ["customers", "city", "equal", "Bergen"],
      ["sales", "orders", "status", "equal", "cancelled"],
      ["sales", "orders", "id", "equal", "4711"],
    ]);
    expect(
      probesOf("SELECT name FROM stores WHERE id IN (SELECT store_id FROM orders WHERE lower(channel) = 'web')"),
    ).toEqual([["orders", "channel", "lower", "equal", "web"]]);
    expect(
      probesOf("SELECT * FROM customers WHERE name ILIKE '%berg%' OR email ~ '^j' OR tier = ANY (ARRAY['gold'])"),
    ).toEqual([
      ["customers", "name", "ilike", "%berg%"],
      ["customers", "email", "regex", "^j"],
      ["customers", "tier", "equal", "gold"],
    ]);
    expect(probesOf("SELECT CASE status WHEN 'open' THEN 'Open' ELSE 'Other' END FROM orders")).toEqual([
      ["orders", "status", "equal", "open"],
    ]);
  });

  it("leaves range bounds, function arguments, labels and limits alone", () => {
    expect(
      probesOf(
        "SELECT date_trunc('month', ordered_at) AS month, to_char(ordered_at, 'YYYY'), extract(year FROM ordered_at), coalesce(note, 'none'), count(*) AS \"orders\" FROM orders WHERE ordered_at >= '2025-01-01' AND total BETWEEN 10 AND 20 AND NOT deleted GROUP BY 1 ORDER BY 1 LIMIT 10",
      ),
    ).toEqual([]);
    expect(probesOf("SELECT count(*) FROM customers")).toEqual([]);
  });

  it("is unverifiable when a string literal meets something it cannot trace to one table's column", () => {
    const unverifiable = [
      "SELECT count(*) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE email = 'x'",
      "SELECT count(*) FROM customers WHERE email || '' = 'janne@web.example'",
      "WITH recent AS (SELECT * FROM customers) SELECT count(*) FROM recent WHERE email = 'x'",
      "SELECT count(*) FROM (SELECT email FROM customers) AS s WHERE s.email = 'x'",
      "SELECT count(*) FROM customers WHERE email SIMILAR TO 'j%'",
      "SELECT count(*) FROM customers WHERE nosuch.email = 'x'",
      "SELECT count(*) FROM customers WHERE strpos(email, 'janne') > 0",
      "SELECT count(*) FROM customers WHERE position('janne' IN email) > 0",
    ];
    for (const sql of unverifiable) expect(exampleLiterals(sql), sql).toMatchObject({ verifiable: false });
    expect(exampleLiterals("SELECT FROM")).toMatchObject({ verifiable: false });
  });
});
