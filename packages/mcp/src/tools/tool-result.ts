import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A tool's successful result: the object as indented JSON text (what every MCP client shows to its model). */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

/**
 * A refused or failed call as an MCP tool error (`isError: true`): the model sees why, with PostgreSQL's SQLSTATE
 * when there is one (`42501` no privilege, `25006` refused as not read-only, `42601` syntax), and can try again.
 */
export function errorResult(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const kind = error instanceof Error ? error.name : "Error";
  return {
    isError: true,
    content: [{ type: "text", text: `${kind}${typeof code === "string" ? ` (${code})` : ""}: ${message}` }],
  };
}

/** Runs a tool's work and turns any error into `errorResult`, so a failure never escapes as a protocol error. */
export async function toolCall(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return errorResult(error);
  }
}
