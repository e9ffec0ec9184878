import { APICallError } from "ai";
import type { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import type { CappedResult } from "../database/read-only-session";
import { DatabaseError } from "../errors/database-errors";
import { ModelOutputError } from "../errors/model-errors";
import { createStepContext } from "../llm/step-context";
import { createFunctionPolicy } from "../sql/function-policy";
import { mockTextModel } from "../testing/mock-text-model";
import { runFixLoop } from "./fix-loop";

/** No catalog facts: every function is left to PostgreSQL. */
const policy = createFunctionPolicy({ functions: [], operators: [] });

function fixerReturning(...outputs: Array<{ reasoning: string; sql: string }>) {
  let call = 0;
  return mockTextModel(() => JSON.stringify(outputs[Math.min(call++, outputs.length - 1)]));
}

function rows(count: number): CappedResult {
  return {
    result: {
      fields: [],
      rows: Array.from({ length: count }, (_, index) => [String(index)]),
      command: `SELECT ${count}`,
    },
    truncated: false,
  };
}

function setup(model: MockLanguageModelV3, maxFixAttempts = 3) {
  const events: PipelineEvent[] = [];
  const context = createStepContext({
    question: "q",
    settings: { ...loadSettings({}), maxFixAttempts },
    onEvent: (event) => events.push(event),
    resolveModel: () => ({ model, id: "mock:fixer", scripted: false }),
  });
  return { context, events };
}

const missingColumn = (sql: string) => new DatabaseError('column "amount" does not exist', { sql, code: "42703" });

describe("runFixLoop", () => {
  it("recovers the fixer's query from a fenced answer with prose around it", async () => {
    const model = fixerReturning({
      reasoning: "amount does not exist",
      sql: "The column is called total:\n```sql\nSELECT total FROM orders;\n```\nThis should run.",
    });
    const { context } = setup(model);
    const executed: string[] = [];
    const fixed = await runFixLoop({
      candidate: 0,
      sql: "SELECT amount FROM orders",
      schema: "CREATE TABLE orders (total numeric);",
      context,
      policy,
      execute: async (sql) => {
        executed.push(sql);
        if (sql.includes("amount")) throw missingColumn(sql);
        return rows(1);
      },
    });
    expect(fixed.sql).toBe("SELECT total FROM orders");
    expect(executed).toEqual(["SELECT amount FROM orders", "SELECT total FROM orders"]);
  });

  it("sends the SQLSTATE and message to the fixer and runs the revision", async () => {
    const model = fixerReturning({ reasoning: "use total", sql: "SELECT total FROM orders;" });
    const { context, events } = setup(model);
    const executed: string[] = [];
    const fixed = await runFixLoop({
      candidate: 0,
      sql: "SELECT amount FROM orders",
      schema: "CREATE TABLE orders (total numeric);",
      context,
      policy,
      execute: async (sql) => {
        executed.push(sql);
        if (sql.includes("amount")) throw missingColumn(sql);
        return rows(2);
      },
    });
    expect(fixed).toMatchObject({ sql: "SELECT total FROM orders", revisions: 1, reasoning: "use total" });
    expect(executed).toEqual(["SELECT amount FROM orders", "SELECT total FROM orders"]);
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain('The query failed with PostgreSQL error 42703: column \\"amount\\" does not exist');
    expect(events.map((event) => event.type)).toEqual(["fix-start", "llm-call-start", "llm-call-end", "fix-end"]);
    expect(events[1]).toEqual({ type: "llm-call-start", step: "fix-candidate" });
  });

  it("throws the error without a fixer call when no attempts are allowed", async () => {
    const model = fixerReturning({ reasoning: "", sql: "SELECT 1" });
    const { context } = setup(model, 0);
    const attempt = runFixLoop({
      candidate: 0,
      sql: "SELECT amount FROM orders",
      schema: "",
      context,
      policy,
      execute: async (sql) => {
        throw missingColumn(sql);
      },
    });
    await expect(attempt).rejects.toMatchObject({ code: "42703" });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("stops when the fixer keeps a failing query, throwing the original error", async () => {
    const model = fixerReturning({ reasoning: "looks right", sql: "SELECT amount FROM orders" });
    const { context } = setup(model);
    const attempt = runFixLoop({
      candidate: 0,
      sql: "SELECT amount FROM orders;",
      schema: "",
      context,
      policy,
      execute: async (sql) => {
        throw missingColumn(sql);
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseError);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("accepts an empty result when the fixer keeps the query or attempts run out", async () => {
    const keep = setup(fixerReturning({ reasoning: "empty is right", sql: "" }));
    const kept = await runFixLoop({
      candidate: 0,
      sql: "SELECT 1 WHERE false",
      schema: "",
      context: keep.context,
      policy,
      execute: async () => rows(0),
    });
    expect(kept).toMatchObject({ revisions: 1, result: { result: { rows: [] } } });

    let variant = 0;
    const model = fixerReturning(
      { reasoning: "try again", sql: "SELECT 2 WHERE false" },
      { reasoning: "again", sql: "SELECT 3 WHERE false" },
    );
    const limited = setup(model, 2);
    const exhausted = await runFixLoop({
      candidate: 0,
      sql: "SELECT 1 WHERE false",
      schema: "",
      context: limited.context,
      policy,
      execute: async () => {
        variant += 1;
        return rows(0);
      },
    });
    expect(exhausted).toMatchObject({ sql: "SELECT 3 WHERE false", revisions: 2 });
    expect(variant).toBe(3);
  });

  it("keeps a valid empty result when the fixer's call fails (unreadable, refused) instead of failing the candidate", async () => {
    for (const fixer of [
      mockTextModel(() => "I cannot help with that."),
      mockTextModel(() => {
        throw new APICallError({ message: "refused", url: "http://x", requestBodyValues: {}, statusCode: 400 });
      }),
    ]) {
      const { context } = setup(fixer);
      const fixed = await runFixLoop({
        candidate: 0,
        sql: "SELECT name FROM customers WHERE city = 'Atlantis'",
        schema: "CREATE TABLE customers (name text, city text);",
        context,
        policy,
        execute: async () => rows(0),
      });
      expect(fixed.sql).toBe("SELECT name FROM customers WHERE city = 'Atlantis'");
      expect(fixed.result.result.rows).toEqual([]);
    }
  });

  it("keeps the valid empty result when the fixer's revision fails on the last attempt", async () => {
    const model = fixerReturning({ reasoning: "try amount", sql: "SELECT amount FROM orders" });
    const { context } = setup(model, 1);
    const fixed = await runFixLoop({
      candidate: 0,
      sql: "SELECT total FROM orders WHERE total > 1000",
      schema: "CREATE TABLE orders (total numeric);",
      context,
      policy,
      execute: async (sql) => {
        if (sql.includes("amount")) throw missingColumn(sql);
        return rows(0);
      },
    });
    expect(fixed.sql).toBe("SELECT total FROM orders WHERE total > 1000");
    expect(fixed.result.result.rows).toEqual([]);
  });

  it("still fails a query that never ran when the fixer's call fails", async () => {
    const { context } = setup(mockTextModel(() => "no JSON"));
    await expect(
      runFixLoop({
        candidate: 0,
        sql: "SELECT amount FROM orders",
        schema: "CREATE TABLE orders (total numeric);",
        context,
        policy,
        execute: async (sql) => {
          throw missingColumn(sql);
        },
      }),
    ).rejects.toBeInstanceOf(ModelOutputError);
  });

  it("throws the last error once the attempts are used up", async () => {
    const model = fixerReturning(
      { reasoning: "a", sql: "SELECT amount2 FROM orders" },
      { reasoning: "b", sql: "SELECT amount3 FROM orders" },
    );
    const { context } = setup(model, 2);
    const attempt = runFixLoop({
      candidate: 0,
      sql: "SELECT amount FROM orders",
      schema: "",
      context,
      policy,
      execute: async (sql) => {
        throw missingColumn(sql);
      },
    });
    await expect(attempt).rejects.toMatchObject({ code: "42703", sql: "SELECT amount3 FROM orders" });
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it("gives validation errors to the fixer as well", async () => {
    const model = fixerReturning({ reasoning: "read only", sql: "SELECT count(*) FROM orders" });
    const { context } = setup(model);
    const fixed = await runFixLoop({
      candidate: 0,
      sql: "DELETE FROM orders",
      schema: "",
      context,
      policy,
      execute: async () => rows(1),
    });
    expect(fixed.sql).toBe("SELECT count(*) FROM orders");
    expect(JSON.stringify(model.doGenerateCalls[0]?.prompt)).toContain(
      "25006: only read-only queries are allowed, not DeleteStmt",
    );
  });

  it("validates against the question's function policy before executing, and gives the refusal to the fixer", async () => {
    const refusing = createFunctionPolicy({
      functions: [
        { schema: "pg_catalog", name: "pg_advisory_lock", volatility: "v", extension: null, onSearchPath: true },
      ],
      operators: [],
    });
    const model = fixerReturning({ reasoning: "no locks", sql: "SELECT 1" });
    const { context, events } = setup(model);
    const executed: string[] = [];
    const fixed = await runFixLoop({
      candidate: 0,
      sql: "SELECT pg_advisory_lock(1)",
      schema: "",
      context,
      policy: refusing,
      execute: async (sql) => {
        executed.push(sql);
        return rows(1);
      },
    });
    expect(executed).toEqual(["SELECT 1"]);
    expect(fixed.sql).toBe("SELECT 1");
    expect(events[0]).toMatchObject({ type: "fix-start", reason: expect.stringMatching(/^25006: .*advisory locks/) });
  });
});
