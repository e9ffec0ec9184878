import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RoleKind } from "./adversarial-world";
import { writeScriptedFixture } from "./ask-question";
import { compareState } from "./compare-state";
import type { AdversarialMcp, McpTransport } from "./mcp-servers";
import type { Payload } from "./payload";
import { plantedCodePayloads } from "./planted-code-payloads";
import { type CaseEnvironment, plantedCodeViolations, refusalViolations } from "./run-case";
import { readServerSnapshot } from "./server-snapshot";

/** An MCP tool a case calls: the payload as `run_sql`'s or `explain`'s SQL, or as the model's answer to `ask`. */
export type McpTool = "run_sql" | "ask" | "explain" | "search_schema";

/** One MCP case: a payload through one tool over one transport, as one role. */
export interface McpCase {
  readonly transport: McpTransport;
  readonly tool: McpTool;
  readonly role: RoleKind;
  readonly payload: Payload;
}

const transports: readonly McpTransport[] = ["stdio", "http"];
const roles: readonly RoleKind[] = ["superuser", "ordinary", "rls"];

/**
 * Issue 25 through MCP over stdio and HTTP, in the three roles: every planted-code payload through `run_sql` (a client
 * wrote it) and `ask` (a hostile model answered with it), the view and the cast through `explain`, and `search_schema`
 * (which samples values of the tables it lists).
 */
export const mcpCases: readonly McpCase[] = transports.flatMap((transport) =>
  roles.flatMap((role) => [
    ...plantedCodePayloads.flatMap((payload) =>
      (["run_sql", "ask"] as const).map((tool) => ({ transport, tool, role, payload })),
    ),
    ...plantedCodePayloads.slice(0, 4).map((payload) => ({ transport, tool: "explain" as const, role, payload })),
    { transport, tool: "search_schema" as const, role, payload: plantedCodePayloads[0]! },
  ]),
);

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The tool's outcome: an error (`isError`, with the SQLSTATE in parentheses when there is one) or the result text. */
function outcomeOf(result: CallToolResult): { error?: { code: string; message: string }; text: string } {
  const text = textOf(result);
  if (result.isError !== true) return { text };
  return { error: { code: /\((\w{5})\)/.exec(text)?.[1] ?? "(none)", message: text }, text };
}

/**
 * Runs one MCP case and returns every violation: the database as the observer sees it (data, schema, the planter's
 * table) and the planted code's file must be as before, a payload with an expected refusal must be refused so, and the
 * role's MCP session must still answer `SELECT 1`. Repairs the world after a violation.
 */
export async function runMcpCase(
  environment: CaseEnvironment,
  mcp: AdversarialMcp,
  testCase: McpCase,
  index: number,
): Promise<string[]> {
  const { world, observer } = environment;
  const violations: string[] = [];
  const client = mcp.client(testCase.transport, testCase.role);
  const sql = testCase.payload.sql({
    filePath: "",
    bystanderPid: 0,
    slotName: "",
    evilRole: "",
    dblinkConnection: world.dblinkConnection,
    largeObjectId: world.largeObjectId,
  });
  try {
    const before = await readServerSnapshot(observer, world.suffix, 0);
    writeScriptedFixture(environment.fixturePath, { sql, revision: `${sql}\n-- revised by the fixer` });
    const input =
      testCase.tool === "ask"
        ? { question: `adversarial MCP case ${index}` }
        : testCase.tool === "search_schema"
          ? { query: "ledger accounts" }
          : { sql };
    const outcome = outcomeOf((await client.callTool({ name: testCase.tool, arguments: input })) as CallToolResult);
    const after = await readServerSnapshot(observer, world.suffix, 0);
    compareState("database", before.database, after.database, violations);
    violations.push(...(await plantedCodeViolations(world, observer)));
    if (testCase.tool === "search_schema") {
      if (outcome.error) violations.push(`search_schema failed: ${outcome.error.message}`);
    } else violations.push(...refusalViolations(testCase.payload, world, outcome.error));
    const served = outcomeOf(
      (await client.callTool({ name: "run_sql", arguments: { sql: "SELECT 1 AS one" } })) as CallToolResult,
    );
    if (served.error) violations.push(`the MCP session no longer runs SELECT 1: ${served.error.message}`);
    return violations;
  } finally {
    if (violations.length > 0) await world.repair(observer);
  }
}
