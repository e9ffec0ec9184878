import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type McpHttpServer, startMcpHttpServer } from "./http-server";
import { nlqToolNames } from "./nlq-mcp-server";
import type { McpToolSettings } from "./role-session";

const fixture = path.join(import.meta.dirname, "fixtures", "mcp-model.json");
const suffix = randomBytes(4).toString("hex");
const alice = { role: `mcp_alice_${suffix}`, password: "alice-secret" };
const bob = { role: `mcp_bob_${suffix}`, password: "bob-secret" };
let database: TestDatabase;
let server: McpHttpServer;
const clients: Client[] = [];

const tools: McpToolSettings = {
  settings: loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast" }),
  settingsForPreset: (preset) => loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: preset }),
  maxRows: 100,
};

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_mcp_http",
    `CREATE ROLE ${alice.role} LOGIN PASSWORD '${alice.password}';
     CREATE ROLE ${bob.role} LOGIN PASSWORD '${bob.password}';
     CREATE TABLE accounts (id integer PRIMARY KEY, owner name NOT NULL, region text NOT NULL,
       alice_note text, bob_note text);
     COMMENT ON TABLE accounts IS 'customer accounts, one row per owner and region';
     INSERT INTO accounts VALUES (1, '${alice.role}', 'North', 'alice wrote this', NULL),
       (2, '${bob.role}', 'South', NULL, 'bob wrote this'), (3, '${alice.role}', 'East', NULL, NULL);
     ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
     CREATE POLICY own_rows ON accounts FOR SELECT USING (owner = current_user);
     GRANT SELECT (id, owner, region, alice_note) ON accounts TO ${alice.role};
     GRANT SELECT (id, owner, region, bob_note) ON accounts TO ${bob.role};
     CREATE TABLE salaries (id integer, amount integer);
     INSERT INTO salaries VALUES (1, 100);`,
  );
  server = await startMcpHttpServer({
    port: 0,
    url: database.url,
    tools,
    version: "test",
    // The shared test server logs roles in by trust; the SCRAM check is tested on a server that asks for passwords.
    allowUncheckedPasswords: true,
    // Its tests open many sessions of one role; the per-role cap has its own test.
    maxSessionsPerRole: 16,
  });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
  await database?.drop();
  await dropTestRole(alice.role);
  await dropTestRole(bob.role);
});

function basic(credentials: { role: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.role}:${credentials.password}`).toString("base64")}`;
}

async function connect(endpoint: string, authorization: string): Promise<Client> {
  const client = new Client({ name: "nlq-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers: { Authorization: authorization } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: input })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

function jsonOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as Record<string, unknown>;
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

async function postInitialize(authorization?: string): Promise<Response> {
  return fetch(server.endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(initialize),
  });
}

/** POSTs an initialize with raw headers (fetch may not send an Origin of our choosing). */
const rawInitialize = (endpoint: string, headers: Record<string, string>) =>
  new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
    const url = new URL(endpoint);
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        response.on("end", () => resolve({ status: response.statusCode, body }));
      },
    );
    request.once("error", reject);
    request.end(JSON.stringify(initialize));
  });

describe("nlq MCP server over Streamable HTTP", () => {
  it("refuses a request without credentials with 401 and a WWW-Authenticate challenge", async () => {
    const response = await postInitialize();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm="nlq"/);
    expect(server.sessionCount()).toBe(0);
  });

  it("refuses a request whose Host is not the loopback address it serves (DNS rebinding)", async () => {
    const endpoint = new URL(server.endpoint);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        {
          host: endpoint.hostname,
          port: endpoint.port,
          path: endpoint.pathname,
          method: "POST",
          headers: {
            host: "attacker.example:80",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: basic(alice),
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.once("error", reject);
      request.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it("refuses an Origin other than its own with 403 before reading credentials, as the MCP specification requires", async () => {
    const own = new URL(server.endpoint).origin;
    for (const origin of ["http://attacker.example", "null", "http://127.0.0.1:1", `${own}.attacker.example`]) {
      const refused = await rawInitialize(server.endpoint, { origin });
      expect(refused.status, origin).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({
        jsonrpc: "2.0",
        error: { message: expect.stringContaining("is not allowed") },
      });
    }
    // Before credentials: no login was tried for the refused requests above (none carried any).
    expect((await rawInitialize(server.endpoint, { origin: own, authorization: basic(alice) })).status).toBe(200);
    expect((await rawInitialize(server.endpoint, { authorization: basic(alice) })).status).toBe(200);
    const configured = await startMcpHttpServer({
      port: 0,
      url: database.url,
      tools,
      version: "test",
      allowUncheckedPasswords: true,
      allowedOrigins: ["https://assistant.example.com"],
    });
    try {
      const allowed = await rawInitialize(configured.endpoint, {
        origin: "https://assistant.example.com",
        authorization: basic(alice),
      });
      expect(allowed.status).toBe(200);
      expect((await rawInitialize(configured.endpoint, { origin: "https://other.example.com" })).status).toBe(403);
    } finally {
      await configured.close();
    }
    await expect(
      startMcpHttpServer({ port: 0, url: database.url, tools, version: "test", allowedOrigins: ["not an origin"] }),
    ).rejects.toThrow(/not an origin/);
  });

  it("refuses a role that does not exist with 401", async () => {
    const response = await postInitialize(basic({ role: `mcp_nobody_${suffix}`, password: "x" }));
    expect(response.status).toBe(401);
  });

  it("lists the four tools to an authenticated client", async () => {
    const client = await connect(server.endpoint, basic(alice));
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...nlqToolNames].sort());
    expect(client.getServerVersion()?.name).toBe("nlq");
  });

  it("runs each client's calls as its own role: row-level security and column grants apply", async () => {
    const asAlice = await connect(server.endpoint, basic(alice));
    const asBob = await connect(server.endpoint, basic(bob));
    const aliceRows = jsonOf(
      await call(asAlice, "run_sql", { sql: "SELECT current_user, region FROM accounts ORDER BY id" }),
    );
    const bobRows = jsonOf(
      await call(asBob, "run_sql", { sql: "SELECT current_user, region FROM accounts ORDER BY id" }),
    );
    expect(aliceRows.rows).toEqual([
      [alice.role, "North"],
      [alice.role, "East"],
    ]);
    expect(bobRows.rows).toEqual([[bob.role, "South"]]);

    const aliceSchema = JSON.stringify(jsonOf(await call(asAlice, "search_schema", { query: "account note" })));
    const bobSchema = JSON.stringify(jsonOf(await call(asBob, "search_schema", { query: "account note" })));
    expect(aliceSchema).toContain("alice_note");
    expect(aliceSchema).toContain("customer accounts, one row per owner and region");
    expect(aliceSchema).not.toContain("bob_note");
    expect(aliceSchema).not.toContain("salaries");
    expect(bobSchema).toContain("bob_note");
    expect(bobSchema).not.toContain("alice_note");
    // Example values are read under the role: Bob's search shows his region, never Alice's.
    expect(bobSchema).toContain("South");
    expect(bobSchema).not.toContain("North");

    const bobReadsAliceColumn = await call(asBob, "run_sql", { sql: "SELECT alice_note FROM accounts" });
    expect(bobReadsAliceColumn.isError).toBe(true);
    expect(textOf(bobReadsAliceColumn)).toContain("42501");
  });

  it("answers a question through the pipeline under the asking role", async () => {
    const asBob = await connect(server.endpoint, basic(bob));
    const answer = jsonOf(await call(asBob, "ask", { question: "Which regions are my accounts in?" }));
    expect(answer.sql).toBe("SELECT owner, region FROM accounts ORDER BY id");
    expect(answer.rows).toEqual([[bob.role, "South"]]);
    expect(answer.columns).toEqual(["owner", "region"]);
    expect(answer.scripted).toBe(true);
    expect(answer.confidenceBasis).toEqual(expect.any(String));
    expect(answer.candidates).toEqual([expect.objectContaining({ ok: true, rows: 1 })]);
  });

  it("refuses a write, an ungranted table and a forbidden function as tool errors", async () => {
    const client = await connect(server.endpoint, basic(alice));
    const write = await call(client, "run_sql", { sql: "DELETE FROM accounts" });
    expect(write.isError).toBe(true);
    // The bypass that retired the reference MCP server: end the read-only transaction, then write.
    const bypass = await call(client, "run_sql", { sql: "COMMIT; DROP TABLE accounts" });
    expect(bypass.isError).toBe(true);
    const cte = await call(client, "run_sql", {
      sql: "WITH gone AS (DELETE FROM accounts RETURNING id) SELECT count(*) FROM gone",
    });
    expect(cte.isError).toBe(true);
    expect(jsonOf(await call(client, "run_sql", { sql: "SELECT count(*) FROM accounts" })).rows).toEqual([["2"]]);
    const ungranted = await call(client, "run_sql", { sql: "SELECT * FROM salaries" });
    expect(ungranted.isError).toBe(true);
    expect(textOf(ungranted)).toContain("42501");
    const forbidden = await call(client, "run_sql", { sql: "SELECT pg_sleep(0)" });
    expect(forbidden.isError).toBe(true);
    expect(textOf(forbidden)).toContain("pg_sleep");
    const explained = await call(client, "explain", { sql: "DROP TABLE accounts" });
    expect(explained.isError).toBe(true);
  });

  it("explains a query without running it, in text or JSON", async () => {
    const client = await connect(server.endpoint, basic(alice));
    const text = jsonOf(await call(client, "explain", { sql: "SELECT region FROM accounts WHERE id = 1" }));
    expect((text.plan as string[]).join("\n")).toMatch(/Scan/);
    const json = jsonOf(await call(client, "explain", { sql: "SELECT region FROM accounts", format: "json" }));
    expect(JSON.stringify(json.plan)).toContain('"Node Type"');
    expect(JSON.stringify(json.plan)).not.toContain("Actual");
  });

  it("runs calls sent at once one after another on the role's connection", async () => {
    const client = await connect(server.endpoint, basic(alice));
    const results = await Promise.all(
      [1, 2, 3, 4].map((value) =>
        call(client, "run_sql", { sql: `SELECT ${value} AS value, region FROM accounts ORDER BY id` }),
      ),
    );
    expect(results.map((result) => jsonOf(result).rows)).toEqual(
      [1, 2, 3, 4].map((value) => [
        [String(value), "North"],
        [String(value), "East"],
      ]),
    );
  });

  it("refuses another role's credentials on an open session with 401", async () => {
    const opened = await postInitialize(basic(alice));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id");
    expect(sessionId).toBeTruthy();
    await opened.body?.cancel();
    const hijack = await fetch(server.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: basic(bob),
        "mcp-session-id": sessionId as string,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(401);
    await fetch(server.endpoint, {
      method: "DELETE",
      headers: {
        authorization: basic(alice),
        "mcp-session-id": sessionId as string,
        "mcp-protocol-version": "2025-06-18",
      },
    });
  });
});

describe("nlq MCP server login checks", () => {
  it("refuses a login the database let in without checking the password (trust), unless allowed", async () => {
    const strict = await startMcpHttpServer({ port: 0, url: database.url, tools, version: "test" });
    try {
      const response = await fetch(strict.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: basic(alice),
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("without checking its password");
      expect(strict.sessionCount()).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it("closes a session idle for longer than sessionIdleMilliseconds", async () => {
    const brief = await startMcpHttpServer({
      port: 0,
      url: database.url,
      tools,
      version: "test",
      sessionIdleMilliseconds: 200,
      allowUncheckedPasswords: true,
    });
    try {
      const client = await connect(brief.endpoint, basic(alice));
      expect(brief.sessionCount()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(brief.sessionCount()).toBe(0);
      await expect(client.listTools()).rejects.toThrow();
    } finally {
      await brief.close();
    }
  });

  it("ends a session whose connection was lost (the backend terminated): its next request gets 404", async () => {
    const opened = await postInitialize(basic(bob));
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.body?.cancel();
    const before = server.sessionCount();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = current_database()",
        [bob.role],
      );
    } finally {
      await admin.end();
    }
    // Every session of Bob's (this one and earlier tests') lost its connection and is closed.
    const listTools = () =>
      fetch(server.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: basic(bob),
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
    await vi.waitFor(async () => expect((await listTools()).status).toBe(404), { timeout: 5_000, interval: 100 });
    expect(server.sessionCount()).toBeLessThan(before);
  });

  it("caps the sessions one role may hold (429 beyond, saying why), while other roles still get theirs", async () => {
    const capped = await startMcpHttpServer({
      port: 0,
      url: database.url,
      tools,
      version: "test",
      maxSessions: 4,
      maxSessionsPerRole: 1,
      allowUncheckedPasswords: true,
    });
    try {
      await connect(capped.endpoint, basic(alice));
      const again = await rawInitialize(capped.endpoint, { authorization: basic(alice) });
      expect(again.status).toBe(429);
      expect(JSON.parse(again.body).error.message).toMatch(
        new RegExp(`role "${alice.role}" has 1 sessions open, the most one role may hold .*4 in all.*close one`),
      );
      await connect(capped.endpoint, basic(bob));
      expect(capped.sessionCount()).toBe(2);
    } finally {
      await capped.close();
    }
  });

  it("caps the sessions open at once (503 beyond)", async () => {
    const capped = await startMcpHttpServer({
      port: 0,
      url: database.url,
      tools,
      version: "test",
      maxSessions: 1,
      allowUncheckedPasswords: true,
    });
    try {
      await connect(capped.endpoint, basic(alice));
      const second = await fetch(capped.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: basic(bob),
        },
        body: JSON.stringify(initialize),
      });
      expect(second.status).toBe(503);
      expect(capped.sessionCount()).toBe(1);
    } finally {
      await capped.close();
    }
  });
});
