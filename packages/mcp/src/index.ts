// Public API of @nlq/mcp: the MCP server of nlq (stdio and Streamable HTTP), its tools and its authentication.

export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MILLISECONDS,
  type McpHttpServer,
  type McpHttpServerOptions,
  startMcpHttpServer,
} from "./http-server";
export { createNlqMcpServer, nlqToolNames } from "./nlq-mcp-server";
export { connectRole, type RoleConnection } from "./role-connection";
export { parseAuthorization, type RoleCredentials } from "./role-credentials";
export type { McpToolSettings, RoleSession } from "./role-session";
export { type StdioServerOptions, serveStdio } from "./stdio-server";
