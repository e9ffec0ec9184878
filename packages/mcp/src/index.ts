// Public API of @nlq/mcp: the MCP server of nlq (stdio and Streamable HTTP), its tools and its authentication.

export {
  DEFAULT_MAX_SESSIONS,
  type McpHttpServer,
  type McpHttpServerOptions,
  startMcpHttpServer,
} from "./http-server";
export { createNlqMcpServer } from "./nlq-mcp-server";
export { connectRole, type RoleConnection } from "./role-connection";
export type { McpToolSettings, RoleSession } from "./role-session";
export { type StdioServerOptions, serveStdio } from "./stdio-server";
