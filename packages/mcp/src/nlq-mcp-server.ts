import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type Answer, builtInPresetNames } from "@nlq/engine";
import { z } from "zod";
import type { McpToolSettings, RoleSession } from "./role-session";
import { askTool } from "./tools/ask-tool";
import { chooseReading } from "./tools/choose-reading";
import { elicitInterpretation } from "./tools/elicit-interpretation";
import { explainSql } from "./tools/explain-sql";
import { proposeKnowledge, readKnowledge } from "./tools/knowledge-tools";
import { runSql } from "./tools/run-sql";
import { searchSchema } from "./tools/search-schema";
import { jsonResult, toolCall } from "./tools/tool-result";

/** Names of the tools every nlq MCP server offers. */
export const nlqToolNames = [
  "ask",
  "choose_reading",
  "run_sql",
  "search_schema",
  "explain",
  "read_knowledge",
  "propose_knowledge",
] as const;

/** Longest SQL text a tool accepts, in characters. */
const MAX_SQL_LENGTH = 100_000;

/**
 * An MCP server whose tools run under one PostgreSQL role (`role`): `ask` (the whole NL→SQL pipeline),
 * `choose_reading` (another interpretation of the session's last `ask` answer, kept from now on with `remember`),
 * `run_sql` (SQL validated like generated SQL, read-only, capped), `search_schema` (the tables and columns the role may
 * read), `explain` (a plan, never ANALYZE), `read_knowledge` (the definitions the role may see) and
 * `propose_knowledge` (a suggestion an administrator accepts). A refused or failed call is a tool error
 * (`isError: true`).
 */
export function createNlqMcpServer(role: RoleSession, tools: McpToolSettings, version: string): McpServer {
  const server = new McpServer(
    { name: "nlq", version },
    {
      instructions:
        "nlq answers questions about a PostgreSQL database in natural language, as the connected PostgreSQL role, " +
        "read-only. Use search_schema to find tables and columns, ask for a question in plain language, run_sql " +
        "for one read-only SELECT, explain for its plan, read_knowledge for the business definitions (terms, " +
        "metrics, descriptions, rules) the answers use, propose_knowledge to suggest one to an administrator.",
    },
  );
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
  /** The session's last `ask` answer (or choice), which `choose_reading` picks from. */
  let lastAnswer: Answer | undefined;
  server.registerTool(
    "ask",
    {
      title: "Ask the database a question",
      description:
        "Answers a question in natural language: writes SQL with several candidates, runs them read-only as your " +
        "PostgreSQL role and returns the chosen SQL, its rows (capped), the confidence with its basis, the " +
        "plain-language answer, the candidates and, when they disagree, the other interpretations.",
      inputSchema: {
        question: z.string().min(1).max(20_000).describe("the question, e.g. 'how many customers ordered in May?'"),
        preset: z
          .enum(builtInPresetNames as unknown as [string, ...string[]])
          .optional()
          .describe("how hard to work: fast, balanced (default) or max"),
      },
      annotations: { ...readOnly, openWorldHint: true },
    },
    (input, extra) =>
      toolCall(async () =>
        jsonResult(
          await askTool(
            role,
            tools,
            input,
            extra.signal,
            server.server.getClientVersion()?.name,
            (answer) => elicitInterpretation(server.server, answer, extra.signal),
            (answer) => {
              lastAnswer = answer;
            },
          ),
        ),
      ),
  );
  server.registerTool(
    "choose_reading",
    {
      title: "Answer with another reading of the last question",
      description:
        "When ask listed interpretations (readings whose results differ), answers that question again with the " +
        "interpretation of the given number, run read-only as your PostgreSQL role. It answers that question only; " +
        "with remember: true the reading is also kept as what you mean from now on (later questions that hinge on " +
        "the same phrase follow it without asking).",
      inputSchema: {
        number: z.number().int().min(1).max(1_000).describe("the interpretation's number in the last ask result"),
        remember: z
          .boolean()
          .optional()
          .describe("keep this reading from now on (default false: answer this question only)"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input, extra) =>
      toolCall(async () => {
        const { result, answer } = await chooseReading(
          role,
          tools,
          lastAnswer,
          input,
          extra.signal,
          server.server.getClientVersion()?.name,
        );
        lastAnswer = answer;
        return jsonResult(result);
      }),
  );
  server.registerTool(
    "run_sql",
    {
      title: "Run one read-only SQL query",
      description:
        "Runs one read-only statement (SELECT, WITH … SELECT, VALUES, TABLE) as your PostgreSQL role, validated like " +
        "generated SQL (no writes, no forbidden functions) and capped in rows and bytes.",
      inputSchema: { sql: z.string().min(1).max(MAX_SQL_LENGTH).describe("one read-only SQL statement") },
      annotations: readOnly,
    },
    ({ sql }, extra) =>
      toolCall(async () =>
        jsonResult(
          await runSql(role, sql, tools.settings, Math.min(tools.maxRows, tools.settings.rowLimit), extra.signal),
        ),
      ),
  );
  server.registerTool(
    "search_schema",
    {
      title: "Search the tables and columns you may read",
      description:
        "Lists the tables and columns your PostgreSQL role may read whose names or descriptions match the words of " +
        "the query (best first, capped), with their descriptions, keys and a few example values.",
      inputSchema: {
        query: z.string().max(1_000).describe("words to look for, e.g. 'customer orders'; '*' lists every table"),
      },
      annotations: readOnly,
    },
    ({ query }, extra) =>
      toolCall(async () =>
        jsonResult(await searchSchema(role, query, tools.settings.statementTimeoutMilliseconds, extra.signal)),
      ),
  );
  server.registerTool(
    "explain",
    {
      title: "Explain a read-only SQL query",
      description:
        "PostgreSQL's plan for one read-only statement, validated like run_sql, without running it (no ANALYZE).",
      inputSchema: {
        sql: z.string().min(1).max(MAX_SQL_LENGTH).describe("one read-only SQL statement"),
        format: z.enum(["text", "json"]).optional().describe("plan format: text (default) or json"),
      },
      annotations: readOnly,
    },
    ({ sql, format }, extra) =>
      toolCall(async () => jsonResult(await explainSql(role, sql, format ?? "text", tools.settings, extra.signal))),
  );
  const knowledgeKinds = ["term", "metric", "description", "rule"] as const;
  server.registerTool(
    "read_knowledge",
    {
      title: "Read the business definitions nlq uses",
      description:
        "Lists the knowledge entries your PostgreSQL role may see on this database — glossary terms, metrics (with " +
        "their SQL), table and column descriptions, rules and confirmed readings — each only when you may read every " +
        "table and column it names. Optionally one kind, or entries holding every word of a query.",
      inputSchema: {
        kind: z
          .enum([...knowledgeKinds, "reading"])
          .optional()
          .describe("only entries of this kind"),
        query: z.string().max(1_000).optional().describe("only entries whose name, text or SQL hold these words"),
      },
      annotations: readOnly,
    },
    (input, extra) => toolCall(async () => jsonResult(await readKnowledge(role, tools, input, extra.signal))),
  );
  server.registerTool(
    "propose_knowledge",
    {
      title: "Propose a business definition",
      description:
        "Proposes a knowledge entry (a term, a metric with its SQL, a description of schema.table or " +
        "schema.table.column, or a rule). It is stored as your suggestion and used by no answer until an " +
        "administrator accepts it. Name only tables and columns you may read.",
      inputSchema: {
        kind: z.enum(knowledgeKinds).describe("term, metric, description or rule"),
        name: z
          .string()
          .min(1)
          .max(200)
          .describe("the term or metric, the element described (schema.table[.column]) or the rule's title"),
        text: z.string().min(1).max(4_000).describe("the definition, description or rule in plain language"),
        sql: z.string().max(4_000).optional().describe("a metric's SQL expression or a rule's SQL condition"),
        references: z
          .array(z.string().max(200))
          .max(64)
          .optional()
          .describe("the tables and columns it names, qualified: schema.table or schema.table.column"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input, extra) => toolCall(async () => jsonResult(await proposeKnowledge(role, tools, input, extra.signal))),
  );
  return server;
}
