// Public API of @nlq/mcp: the MCP server of nlq (stdio and Streamable HTTP), its tools and its authentication.

export { DEFAULT_MAX_SESSIONS, DEFAULT_MAX_SESSIONS_PER_ROLE, startMcpHttpServer } from "./http-server";
export type { McpToolSettings } from "./role-session";
export { serveStdio } from "./stdio-server";
