import { describe, expect, it } from "vitest";
import { extractSql } from "./extract-sql";

describe("extractSql", () => {
  it("keeps a bare query and strips trailing semicolons", () => {
    expect(extractSql("SELECT count(*) FROM customers")).toBe("SELECT count(*) FROM customers");
    expect(extractSql("  SELECT 1;  ;\n")).toBe("SELECT 1");
    expect(extractSql("WITH t AS (SELECT 1 AS x)\nSELECT x FROM t;")).toBe(
      "WITH t AS (SELECT 1 AS x)\nSELECT x FROM t",
    );
  });

  it("returns an empty string when there is no query", () => {
    expect(extractSql("")).toBe("");
    expect(extractSql("   ")).toBe("");
    expect(extractSql("The database has no web analytics, so a bounce rate cannot be computed.")).toBe("");
    expect(extractSql('{"reasoning": "no such data", "sql": ""}')).toBe("");
    expect(extractSql("The data is not there.\n\nFinal SQL:\n```sql\n```")).toBe("");
  });

  it("takes the query out of a sql fence with prose around it", () => {
    const transcript = `Here is the query that counts the customers:

\`\`\`sql
SELECT count(*) AS customers
FROM customers;
\`\`\`

This counts every row of the customers table.`;
    expect(extractSql(transcript)).toBe("SELECT count(*) AS customers\nFROM customers");
  });

  it("accepts an untagged fence and a postgresql-tagged fence", () => {
    expect(extractSql("```\nSELECT name FROM stores\n```")).toBe("SELECT name FROM stores");
    expect(extractSql("Answer:\n```postgresql\nSELECT 2;\n```\n")).toBe("SELECT 2");
    expect(extractSql("```sql SELECT 3```")).toBe("SELECT 3");
  });

  it("takes the last SQL block when a chain of thought shows several", () => {
    const transcript = `Let me first find the stores:
\`\`\`sql
SELECT store_id FROM stores WHERE channel = 'online'
\`\`\`
Then I count their orders:
\`\`\`sql
SELECT count(*) FROM orders o JOIN stores s ON s.store_id = o.store_id WHERE s.channel = 'online';
\`\`\`
The second query is the answer.`;
    expect(extractSql(transcript)).toBe(
      "SELECT count(*) FROM orders o JOIN stores s ON s.store_id = o.store_id WHERE s.channel = 'online'",
    );
  });

  it("takes the block after the final-answer heading even when other blocks follow it", () => {
    const transcript = `**1. Divide and Conquer:**
* **Main Question:** How many orders were cancelled in 2025?
* **Pseudo SQL:** SELECT count(*) FROM orders WHERE cancelled in 2025

**2. Assembling SQL:**
\`\`\`sql
SELECT count(*) FROM orders WHERE status = 'cancelled' AND extract(year FROM ordered_at) = 2025
\`\`\`

**3. Simplification and Optimization:**
A range on ordered_at can use an index.

**Final Optimized SQL Query:**
\`\`\`sql
SELECT count(*) FROM orders
WHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01';
\`\`\`

For comparison, the unoptimised version was:
\`\`\`sql
SELECT count(*) FROM orders WHERE status = 'cancelled' AND extract(year FROM ordered_at) = 2025
\`\`\``;
    expect(extractSql(transcript)).toBe(
      "SELECT count(*) FROM orders\nWHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
    );
  });

  it("reads an unfenced query after the final heading of a query-plan transcript", () => {
    const transcript = `- **Question**: How many customers live in Berlin?
- **Query Plan**:
** Preparation Steps:**
1. Open the customers table.
** Delivering the Result:**
1. Output the count.
- **Final Optimized SQL Query:**

SELECT count(*) FROM customers WHERE lower(trim(city)) = 'berlin';

This query normalises the spelling of the city.`;
    expect(extractSql(transcript)).toBe("SELECT count(*) FROM customers WHERE lower(trim(city)) = 'berlin'");
  });

  it("reads a query that follows a label on the same line", () => {
    expect(extractSql("Final SQL: SELECT name FROM products ORDER BY price DESC LIMIT 3;")).toBe(
      "SELECT name FROM products ORDER BY price DESC LIMIT 3",
    );
    expect(extractSql("* **SQL:** SELECT 1 AS one")).toBe("SELECT 1 AS one");
    expect(extractSql("The answer is `SELECT max(price) FROM products`.")).toBe("SELECT max(price) FROM products");
  });

  it("stops an unfenced query at a blank line followed by prose, but not at one inside the query", () => {
    const transcript = `I would write:
SELECT c.country, count(*) AS orders
FROM orders o

JOIN customers c ON c.customer_id = o.customer_id
GROUP BY c.country

This groups orders by the customer's country.`;
    expect(extractSql(transcript)).toBe(
      "SELECT c.country, count(*) AS orders\nFROM orders o\n\nJOIN customers c ON c.customer_id = o.customer_id\nGROUP BY c.country",
    );
  });

  it("does not cut at semicolons or SQL words inside strings, quoted identifiers and comments", () => {
    expect(extractSql("SELECT 'a;b' AS \"x;y\" -- final; note\nFROM t;")).toBe(
      "SELECT 'a;b' AS \"x;y\" -- final; note\nFROM t",
    );
    expect(extractSql("```sql\nSELECT ';' AS semicolon;\n```")).toBe("SELECT ';' AS semicolon");
  });

  it("reads the sql field of a JSON object, also when the field holds a fence", () => {
    expect(extractSql('{"reasoning": "count rows", "sql": "SELECT count(*) FROM customers;"}')).toBe(
      "SELECT count(*) FROM customers",
    );
    expect(extractSql('{"reasoning": "r", "sql": "```sql\\nSELECT 1\\n```"}')).toBe("SELECT 1");
    const fencedJson = 'Here you go:\n```json\n{"reasoning": "r", "sql": "SELECT 2;"}\n```';
    expect(extractSql(fencedJson)).toBe("SELECT 2");
  });

  it("handles a fence the model did not close", () => {
    expect(extractSql("Final query:\n```sql\nSELECT name\nFROM stores")).toBe("SELECT name\nFROM stores");
  });

  it("ignores fences in other languages and blocks that are not queries", () => {
    const transcript = `Result preview:
\`\`\`
 customers
-----------
       200
\`\`\`
\`\`\`python
print("SELECT nothing")
\`\`\`
\`\`\`sql
SELECT count(*) AS customers FROM customers
\`\`\`
\`\`\`text
done
\`\`\``;
    expect(extractSql(transcript)).toBe("SELECT count(*) AS customers FROM customers");
  });

  it("keeps leading comments and a parenthesised set operation", () => {
    expect(extractSql("```sql\n-- cities\n(SELECT city FROM customers) UNION (SELECT city FROM stores);\n```")).toBe(
      "-- cities\n(SELECT city FROM customers) UNION (SELECT city FROM stores)",
    );
  });

  it("takes the last unfenced query when prose shows a draft and then the answer", () => {
    const transcript = `A first attempt: SELECT * FROM orders

But only cancelled ones count, so:
SELECT count(*) FROM orders WHERE status = 'cancelled'`;
    expect(extractSql(transcript)).toBe("SELECT count(*) FROM orders WHERE status = 'cancelled'");
  });
});
