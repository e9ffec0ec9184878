import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createNlqMcpServer } from "./nlq-mcp-server";
import { allowedOrigins, originRefusal } from "./request-origin";
import { connectRole, type RoleConnection } from "./role-connection";
import {
  authenticateChallenge,
  credentialsDigest,
  parseAuthorization,
  type RoleCredentials,
  sameCredentials,
} from "./role-credentials";
import type { McpToolSettings } from "./role-session";

/** Sessions open at once, by default (every role together). */
export const DEFAULT_MAX_SESSIONS = 16;
/** Sessions one role may hold open at once, by default: one role cannot take every session. */
export const DEFAULT_MAX_SESSIONS_PER_ROLE = 4;
/** A session without a request for this long is closed (its connection too), by default: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MILLISECONDS = 30 * 60_000;
/** Largest request body accepted. */
const MAX_BODY_BYTES = 1_048_576;

export interface McpHttpServerOptions {
  /** Address to listen on; `127.0.0.1` (loopback) by default. */
  readonly host?: string;
  /** Port; 0 picks a free one. */
  readonly port: number;
  /**
   * The database (`postgresql://host:port/database`). Its role and password are never used: each client logs in as
   * the role of its own credentials.
   */
  readonly url: string;
  readonly tools: McpToolSettings;
  readonly version: string;
  /** Sessions open at once, every role together (503 beyond). Default `DEFAULT_MAX_SESSIONS` (16). */
  readonly maxSessions?: number;
  /** Sessions one PostgreSQL role may hold open at once (429 beyond). Default `DEFAULT_MAX_SESSIONS_PER_ROLE` (4). */
  readonly maxSessionsPerRole?: number;
  /**
   * Origins besides the server's own that a browser may call from (`Origin` header, exact `scheme://host[:port]`);
   * any other `Origin` is refused with 403 before anything else, as the MCP specification requires. Requests without
   * `Origin` (MCP clients that are processes) are served. Default none.
   */
  readonly allowedOrigins?: readonly string[];
  readonly sessionIdleMilliseconds?: number;
  /**
   * Accept a login the server let in without checking the password (`trust` in pg_hba.conf). Default false: such a
   * login is refused with 401, since anyone could then claim any role.
   */
  readonly allowUncheckedPasswords?: boolean;
  /** Where one line per refused or failed login goes. Default: nowhere. */
  readonly log?: (line: string) => void;
}

export interface McpHttpServer {
  /** `http://host:port/mcp`, the endpoint clients connect to. */
  readonly endpoint: string;
  /** Sessions open now. */
  sessionCount(): number;
  close(): Promise<void>;
}

interface RoleHttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly connection: RoleConnection;
  readonly digest: Buffer;
  /** The role the client authenticated as. */
  readonly role: string;
  idleTimer?: NodeJS.Timeout;
}

/** Class of a PostgreSQL login error: 28000 / 28P01 are refused credentials, anything else the database failing. */
function isLoginRefused(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "28000" || code === "28P01";
}

function send(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`. Every request carries the client's own PostgreSQL credentials
 * (`Authorization: Basic base64(role:password)` or `Bearer role:password`); a missing or malformed header is refused
 * with 401 and a `WWW-Authenticate` challenge. An `initialize` request logs in to PostgreSQL as that role — the server
 * checks the password (SCRAM, md5 or password per pg_hba.conf; a `trust` login is refused unless
 * `allowUncheckedPasswords`) — and that connection becomes the session's: all its tool calls run on it, under the
 * role's grants and row-level security. Later requests of the session must present the same credentials (else 401);
 * an unknown session is 404, also once its connection was lost. At most `maxSessions` sessions (503 beyond), at most
 * `maxSessionsPerRole` of them one role's (429 beyond); idle sessions are closed. Every request is first checked for
 * DNS rebinding, before its credentials: an `Origin` header other than the server's own or `allowedOrigins` is refused
 * with 403 (the MCP specification's Streamable HTTP transport requires it), and so, on loopback, is a `Host` other than
 * the loopback address it serves. Binds to loopback by default.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxPerRole = options.maxSessionsPerRole ?? DEFAULT_MAX_SESSIONS_PER_ROLE;
  // A configured entry that is no origin fails here, before the server listens.
  allowedOrigins(host, options.port, options.allowedOrigins);
  const idleMilliseconds = options.sessionIdleMilliseconds ?? DEFAULT_SESSION_IDLE_MILLISECONDS;
  const log = options.log ?? (() => undefined);
  const sessions = new Map<string, RoleHttpSession>();
  let opening = 0;
  /** Logins in flight per role (past the password check, before their session is registered). */
  const openingByRole = new Map<string, number>();
  const countOpening = (role: string, change: number) => {
    const count = (openingByRole.get(role) ?? 0) + change;
    if (count > 0) openingByRole.set(role, count);
    else openingByRole.delete(role);
  };
  const sessionsOf = (role: string) =>
    [...sessions.values()].filter((session) => session.role === role).length + (openingByRole.get(role) ?? 0);
  let port = options.port;
  let origins = new Set<string>();
  let allowedHosts: string[] | undefined;

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    clearTimeout(session.idleTimer);
    await session.transport.close().catch(() => undefined);
    await session.connection.close();
  };
  const touch = (id: string, session: RoleHttpSession) => {
    clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => void closeSession(id), idleMilliseconds);
    session.idleTimer.unref();
  };

  const roleUrl = (credentials: RoleCredentials) => {
    const url = new URL(options.url);
    url.username = encodeURIComponent(credentials.role);
    url.password = encodeURIComponent(credentials.password);
    return url.toString();
  };

  const openSession = async (
    request: IncomingMessage,
    response: ServerResponse,
    credentials: RoleCredentials,
    body: unknown,
  ) => {
    if (sessions.size + opening >= maxSessions) {
      return send(response, 503, `too many sessions (at most ${maxSessions}); close one and retry`, {
        "retry-after": "10",
      });
    }
    opening += 1;
    let connection: RoleConnection;
    try {
      connection = await connectRole(roleUrl(credentials), `nlq mcp (${request.socket.remoteAddress ?? "?"})`);
    } catch (error) {
      opening -= 1;
      if (isLoginRefused(error)) {
        log(`refused login as ${JSON.stringify(credentials.role)} from ${request.socket.remoteAddress}`);
        return send(response, 401, "invalid PostgreSQL role or password", {
          "www-authenticate": authenticateChallenge,
        });
      }
      log(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`);
      return send(response, 502, "the database cannot be reached");
    }
    if (!connection.passwordChecked && !options.allowUncheckedPasswords) {
      opening -= 1;
      await connection.close();
      log(`refused login as ${JSON.stringify(credentials.role)}: the server did not check its password (trust)`);
      return send(response, 401, "the database let this role in without checking its password; refused", {
        "www-authenticate": authenticateChallenge,
      });
    }
    if (sessionsOf(credentials.role) >= maxPerRole) {
      opening -= 1;
      await connection.close();
      log(`refused a session for ${JSON.stringify(credentials.role)}: it holds ${maxPerRole} already`);
      return send(
        response,
        429,
        `role ${JSON.stringify(credentials.role)} has ${maxPerRole} sessions open, the most one role may hold (nlq mcp --max-sessions-per-role; ${maxSessions} in all); close one (DELETE /mcp with its Mcp-Session-Id) or wait until one is idle for ${Math.round(idleMilliseconds / 60_000)} minutes`,
        { "retry-after": "10" },
      );
    }
    countOpening(credentials.role, 1);
    const digest = credentialsDigest(credentials);
    let transport: StreamableHTTPServerTransport;
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(allowedHosts ? { allowedHosts, enableDnsRebindingProtection: true } : {}),
      onsessioninitialized: (id) => {
        const session: RoleHttpSession = { transport, connection, digest, role: credentials.role };
        sessions.set(id, session);
        touch(id, session);
        // A lost connection ends its session: the client's next request gets 404 and it initialises again.
        void connection.ended.then(() => closeSession(id));
      },
      onsessionclosed: (id) => closeSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) void closeSession(transport.sessionId);
    };
    const address = request.socket.remoteAddress;
    const role = address === undefined ? connection.role : { ...connection.role, clientAddress: address };
    const server = createNlqMcpServer(role, options.tools, options.version);
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    } finally {
      opening -= 1;
      countOpening(credentials.role, -1);
      // An initialize that did not open a session (refused by the transport) leaves nothing behind.
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
        await server.close().catch(() => undefined);
        await connection.close();
      }
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // DNS rebinding first, before credentials are read or a login is tried.
    const badOrigin = originRefusal(request.headers.origin, origins);
    if (badOrigin !== undefined) return send(response, 403, badOrigin);
    if (allowedHosts !== undefined && !allowedHosts.includes(request.headers.host ?? "")) {
      return send(
        response,
        403,
        `Host ${JSON.stringify(request.headers.host ?? "")} is not the address this server serves`,
      );
    }
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return send(response, 404, "not found: the MCP endpoint is /mcp");
    const credentials = parseAuthorization(request.headers.authorization);
    if (!credentials) {
      return send(response, 401, "authenticate as a PostgreSQL role: Authorization: Basic base64(role:password)", {
        "www-authenticate": authenticateChallenge,
      });
    }
    let body: unknown;
    if (request.method === "POST") {
      try {
        body = await readJsonBody(request);
      } catch (error) {
        return send(response, 400, `bad request body: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const sessionHeader = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId === undefined) {
      if (request.method === "POST" && isInitializeRequest(body)) {
        return openSession(request, response, credentials, body);
      }
      return send(response, 400, "no session: send initialize first");
    }
    const session = sessions.get(sessionId);
    if (!session) return send(response, 404, "unknown or closed session: initialize again");
    if (!sameCredentials(session.digest, credentialsDigest(credentials))) {
      return send(response, 401, "these credentials did not open this session", {
        "www-authenticate": authenticateChallenge,
      });
    }
    touch(sessionId, session);
    await session.transport.handleRequest(request, response, body);
  };

  const httpServer: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      send(response, 500, "internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  allowedHosts = isLoopback(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : undefined;
  origins = allowedOrigins(host, port, options.allowedOrigins);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    endpoint: `http://${shownHost}:${port}/mcp`,
    sessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.keys()].map((id) => closeSession(id)));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
