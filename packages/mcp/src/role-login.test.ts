import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type AuthTestServer, authTestRoles, startAuthTestServer } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttpServer } from "./http-server";
import { connectRole } from "./role-connection";

// A PostgreSQL whose pg_hba.conf asks nlq_auth_scram for its password by SCRAM and lets nlq_auth_trust in by trust.
let postgres: AuthTestServer;
let server: McpHttpServer;

beforeAll(async () => {
  postgres = await startAuthTestServer();
  server = await startMcpHttpServer({
    port: 0,
    url: postgres.adminUrl,
    tools: {
      settings: loadSettings({ NLQ_PRESET: "fast" }),
      settingsForPreset: (preset) => loadSettings({ NLQ_PRESET: preset }),
      maxRows: 10,
    },
    version: "test",
  });
});

afterAll(async () => {
  await server?.close();
  await postgres?.stop();
});

function basic(role: string, password: string): string {
  return `Basic ${Buffer.from(`${role}:${password}`).toString("base64")}`;
}

async function initialize(authorization: string): Promise<Response> {
  return fetch(server.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

describe("HTTP logins checked by PostgreSQL", () => {
  const { scram, trust } = authTestRoles;

  it("opens a session for the right SCRAM password, its calls running as that role", async () => {
    const client = new Client({ name: "nlq-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(server.endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${scram.name}:${scram.password}` } },
    });
    await client.connect(transport);
    try {
      expect(server.sessionCount()).toBe(1);
      const result = await client.callTool({ name: "run_sql", arguments: { sql: "SELECT current_user" } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain(scram.name);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    // DELETE closed the session and its connection.
    expect(server.sessionCount()).toBe(0);
  });

  it("refuses a wrong password with 401 and opens no session", async () => {
    const before = server.sessionCount();
    const response = await initialize(basic(scram.name, "not-the-password"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Basic");
    expect(server.sessionCount()).toBe(before);
  });

  it("refuses a role the server lets in by trust: its password was never checked", async () => {
    const response = await initialize(basic(trust.name, "anything"));
    expect(response.status).toBe(401);
  });

  it("takes the password from PGPASSWORD when the stdio URL has none, as nlq ask does", async () => {
    const url = new URL(postgres.adminUrl);
    url.username = scram.name;
    url.password = "";
    const previous = process.env.PGPASSWORD;
    process.env.PGPASSWORD = scram.password;
    try {
      const connection = await connectRole(url.toString());
      expect(connection.roleName).toBe(scram.name);
      await connection.close();
    } finally {
      if (previous === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = previous;
    }
  });

  it("notes whether PostgreSQL asked for the password", async () => {
    const url = new URL(postgres.adminUrl);
    url.username = scram.name;
    url.password = scram.password;
    const checked = await connectRole(url.toString());
    url.username = trust.name;
    url.password = "";
    const unchecked = await connectRole(url.toString());
    try {
      expect(checked.passwordChecked).toBe(true);
      expect(checked.roleName).toBe(scram.name);
      expect(unchecked.passwordChecked).toBe(false);
    } finally {
      await checked.close();
      await unchecked.close();
    }
  });
});
