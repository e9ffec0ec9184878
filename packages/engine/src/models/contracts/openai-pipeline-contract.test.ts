import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadSettings } from "../../config/settings";
import { answerQuestion } from "../../pipeline/answer-question";
import { createChessSchemaSelector } from "../../schema-selection/chess-schema-selector";
import { mechanicalValue } from "../../testing/capture-step-requests";
import { resolveModel } from "../resolve-model";
import { openAiStrictProblems } from "./structured-output-rules";

// The whole `max` pipeline — retrieval, filter_column, select_tables, select_columns, four generators, the fixer,
// pairwise selection, the sentence — through the real `openai:` provider against a stub OpenAI that enforces strict
// mode (refusing with OpenAI's 400 `invalid_json_schema` as the model relay does) and answers mechanically like the
// relay's auto-answer.py (a value of the requested schema; each `sql` alternates SELECT 1 / SELECT 2). No request may
// be refused, and selection must reach the pairwise agent.

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_openai_contract",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, city text);
     INSERT INTO customers VALUES (1, 'Ada', 'Berlin'), (2, 'Blaise', 'Paris');`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("OPENAI_BASE_URL", "https://api.openai.com/v1");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await client?.end();
  await database?.drop();
});

describe("OpenAI strict mode, the whole max pipeline", () => {
  it("sends no request OpenAI refuses and reaches pairwise selection", async () => {
    const refused: string[] = [];
    const steps: string[] = [];
    let sqlCount = 0;
    const fetch: typeof globalThis.fetch = async (_, init) => {
      const body = JSON.parse(String(init?.body)) as {
        text: { format: { schema: unknown } };
        input: Array<{ content: unknown }>;
      };
      const problems = openAiStrictProblems(body);
      if (problems.length > 0) {
        refused.push(problems[0]!);
        return new Response(
          JSON.stringify({
            error: { message: problems[0], type: "invalid_request_error", code: "invalid_json_schema" },
          }),
          { status: 400, headers: { "content-type": "application/json" } },
        );
      }
      const value = mechanicalValue(body.text.format.schema) as Record<string, unknown>;
      if ("sql" in value) value.sql = `SELECT ${1 + (sqlCount++ % 2)} AS a`;
      const text = JSON.stringify(value);
      return new Response(
        JSON.stringify({
          id: "resp_1",
          object: "response",
          created_at: 1,
          status: "completed",
          model: "gpt-4o-mini",
          output: [
            {
              type: "message",
              id: "msg_1",
              status: "completed",
              role: "assistant",
              content: [{ type: "output_text", text, annotations: [] }],
            },
          ],
          usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        }),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    };
    const settings = loadSettings({ NLQ_PRESET: "max", NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0" });
    const answer = await answerQuestion({
      question: "Which customers are from Berlin?",
      session: createPgExecutor(client),
      settings,
      schemaSelector: createChessSchemaSelector(),
      resolveModel: () => resolveModel("openai:gpt-4o-mini", settings, { fetch }),
      onEvent: (event) => {
        if (event.type === "llm-call-end") steps.push(event.call.step);
      },
    });
    expect(refused).toEqual([]);
    expect(answer.calls.filter((call) => call.failure !== undefined)).toEqual([]);
    expect(new Set(steps)).toEqual(
      new Set([
        "extract-keywords",
        "filter-column",
        "select-tables",
        "select-columns",
        "find-readings",
        "generate-candidate",
        "generate-divide-and-conquer",
        "generate-query-plan",
        "synthesize-examples",
        "generate-from-examples",
        "select-candidate",
        "summarize-answer",
      ]),
    );
    expect(answer.selection).toMatchObject({ selector: "pairwise", clusters: 2 });
  });
});
