import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { upstreamHost, upstreamPort } from "../clients/proxy-fixture";
import { resultByteLimit } from "./adversarial-settings";
import { type AdversarialWorld, type RoleKind, roleKinds } from "./adversarial-world";

/** How an MCP client reaches `nlq mcp`: the stdio process of its role, or the one Streamable HTTP server. */
export type McpTransport = "stdio" | "http";

/** `nlq mcp` processes for the adversarial suite, one MCP client per transport and role. */
export interface AdversarialMcp {
  client(transport: McpTransport, role: RoleKind): Client;
  close(): Promise<void>;
}

const main = path.resolve(import.meta.dirname, "../../apps/cli/src/cli/main.ts");

/** The environment of every `nlq mcp` process: the adversarial settings, the scripted hostile model, no store. */
function mcpEnvironment(fixturePath: string, home: string): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    ...inherited,
    NLQ_MODEL: `scripted:${fixturePath}`,
    NLQ_PRESET: "fast",
    NLQ_MAX_FIX_ATTEMPTS: "2",
    NLQ_STATEMENT_TIMEOUT_MS: "10000",
    NLQ_ROW_LIMIT: "100",
    NLQ_RESULT_BYTE_LIMIT: String(resultByteLimit),
    // An NLQ_HOME without `.nlq/`: no metadata store, no response cache shared between cases.
    NLQ_HOME: home,
  };
}

/** Starts `nlq mcp --http 127.0.0.1:0` (trust logins allowed: the test server has trust auth) and reads its endpoint. */
async function startHttpServer(url: string, environment: Record<string, string>): Promise<[ChildProcess, string]> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", main, "mcp", "--http", "127.0.0.1:0", "--url", url, "--allow-trust-auth"],
    { env: environment, stdio: ["ignore", "ignore", "pipe"] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`nlq mcp --http did not start: ${seen}`)), 60_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const found = /listening on (http:\/\/\S+\/mcp)/.exec(seen);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`nlq mcp --http exited with ${code}: ${seen}`));
    });
  });
  return [child, endpoint];
}

/**
 * Starts the real `nlq mcp` (from its sources, as an MCP client starts it): over stdio one process per role kind, each
 * logged in as that role; over HTTP one server, each role a session of its own (Basic credentials).
 */
export async function startAdversarialMcp(world: AdversarialWorld, fixturePath: string): Promise<AdversarialMcp> {
  const home = mkdtempSync(path.join(tmpdir(), "nlq-adversarial-mcp-"));
  const environment = mcpEnvironment(fixturePath, home);
  const database = world.database.name;
  const clients = new Map<string, Client>();
  const [httpServer, endpoint] = await startHttpServer(
    `postgresql://${upstreamHost}:${upstreamPort}/${database}`,
    environment,
  );
  try {
    await Promise.all(
      roleKinds.map(async (kind) => {
        const role = world.role(kind);
        const stdio = new Client({ name: "nlq-adversarial", version: "1.0.0" });
        await stdio.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [
              "--import",
              "tsx",
              main,
              "mcp",
              "--url",
              `postgresql://${role}@${upstreamHost}:${upstreamPort}/${database}`,
            ],
            env: environment,
            stderr: "ignore",
          }),
        );
        clients.set(`stdio/${kind}`, stdio);
        const http = new Client({ name: "nlq-adversarial", version: "1.0.0" });
        const authorization = `Basic ${Buffer.from(`${role}:adversarial`).toString("base64")}`;
        await http.connect(
          new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization } } }),
        );
        clients.set(`http/${kind}`, http);
      }),
    );
  } catch (error) {
    httpServer.kill();
    throw error;
  }
  return {
    client(transport, role) {
      const client = clients.get(`${transport}/${role}`);
      if (client === undefined) throw new Error(`no MCP client for ${transport}/${role}`);
      return client;
    },
    async close() {
      await Promise.all([...clients.values()].map((client) => client.close().catch(() => undefined)));
      httpServer.kill("SIGTERM");
      await new Promise((resolve) => (httpServer.exitCode === null ? httpServer.once("exit", resolve) : resolve(null)));
      rmSync(home, { recursive: true, force: true });
    },
  };
}
