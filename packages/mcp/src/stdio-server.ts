import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createNlqMcpServer } from "./nlq-mcp-server";
import { connectRole } from "./role-connection";
import type { McpToolSettings, RoleSession } from "./role-session";

export interface StdioServerOptions {
  /** The database as the role every call runs under (`postgresql://role:password@host:port/database`). */
  readonly url: string;
  readonly tools: McpToolSettings;
  /** nlq's version, reported in `initialize`. */
  readonly version: string;
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

/** Waits until the calls received so far have run and their answers were written. */
async function drain(role: RoleSession): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await role.exclusive(async () => undefined);
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Serves MCP over stdio (the client starts `nlq mcp --url …` and talks JSON-RPC on its stdin/stdout): one connection
 * to PostgreSQL as the URL's role, every tool call on it. Resolves once the client closes stdin (or the transport
 * closes); the connection is closed then. Throws when the connection to PostgreSQL is lost (the server then exits).
 */
export async function serveStdio(options: StdioServerOptions): Promise<void> {
  const connection = await connectRole(options.url);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(
    stdin as NodeJS.ReadStream & typeof process.stdin,
    (options.stdout ?? process.stdout) as NodeJS.WriteStream & typeof process.stdout,
  );
  const server = createNlqMcpServer(connection.role, options.tools, options.version);
  let closing = false;
  let lost = false;
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // A lost connection ends the server: the client sees it exit and may start it again.
    void connection.ended.then(() => {
      lost = !closing;
      void server.close().finally(resolve);
    });
    // The client closed its end: answer the calls it already sent, then close.
    stdin.once("end", () => void drain(connection.role).then(() => server.close().finally(resolve)));
  });
  try {
    await server.connect(transport);
    await closed;
  } finally {
    closing = true;
    await server.close().catch(() => undefined);
    await connection.close();
  }
  if (lost) throw new Error("the connection to PostgreSQL was lost");
}
