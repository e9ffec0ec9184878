import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BackgroundValueIndexes, backgroundIndexKey, connectBackground } from "@nlq/adapters";
import { type AuthTestServer, authTestRoles, startAuthTestServer } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttpServer } from "./http-server";
import { connectRole } from "./role-connection";
import type { McpToolSettings } from "./role-session";

// A PostgreSQL whose pg_hba.conf asks nlq_auth_scram for its password by SCRAM and lets nlq_auth_trust in by trust.
let postgres: AuthTestServer;
let server: McpHttpServer;

/** The tools' settings of every server here (no model configured: questions fail after their values are prepared). */
const tools: McpToolSettings = {
  settings: loadSettings({ NLQ_PRESET: "fast" }),
  settingsForPreset: (preset) => loadSettings({ NLQ_PRESET: preset }),
  maxRows: 10,
};

beforeAll(async () => {
  postgres = await startAuthTestServer();
  server = await startMcpHttpServer({ port: 0, url: postgres.adminUrl, tools, version: "test" });
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

describe("background value indexes over the role's own login", () => {
  const { scram } = authTestRoles;

  it("over HTTP, logs the build in with the client's password, never the runner's PGPASSWORD", async () => {
    const previous = process.env.PGPASSWORD;
    delete process.env.PGPASSWORD;
    const indexes = new BackgroundValueIndexes();
    const withIndexes = await startMcpHttpServer({
      port: 0,
      url: postgres.adminUrl,
      tools: { ...tools, backgroundValueIndexes: indexes },
      version: "test",
    });
    const client = new Client({ name: "nlq-test", version: "1.0.0" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(withIndexes.endpoint), {
          requestInit: { headers: { Authorization: `Bearer ${scram.name}:${scram.password}` } },
        }),
      );
      // No model is configured, so the answer fails; the question's values were prepared first all the same.
      await client.callTool({ name: "ask", arguments: { question: "Which regions?" } });
      const url = new URL(postgres.adminUrl);
      url.username = scram.name;
      url.password = "";
      const key = backgroundIndexKey(url.toString());
      await indexes.settled(key);
      const state = indexes.use(key, () => Promise.reject(new Error("not rebuilt")));
      expect(state.status).toBe("ready");
    } finally {
      await client.close();
      await withIndexes.close();
      if (previous !== undefined) process.env.PGPASSWORD = previous;
    }
  });

  it("over stdio, logs in as the session did: the URL's password, or PGPASSWORD when the URL has none", async () => {
    const url = new URL(postgres.adminUrl);
    url.username = scram.name;
    url.password = scram.password;
    const withPassword = await connectRole(url.toString());
    url.password = "";
    const previous = process.env.PGPASSWORD;
    process.env.PGPASSWORD = scram.password;
    const withoutPassword = await connectRole(url.toString());
    try {
      for (const connection of [withPassword, withoutPassword]) {
        const login = connection.role.backgroundLogin?.();
        if (!login) throw new Error("no background login");
        const background = await connectBackground(login.url, { ambientCredentials: login.ambientCredentials });
        const user = await background.executor.query({ sql: "SELECT current_user" });
        await background.close();
        expect(user.rows[0]?.[0]).toBe(scram.name);
      }
      expect(withPassword.role.backgroundLogin?.().ambientCredentials).toBe(false);
      expect(withoutPassword.role.backgroundLogin?.().ambientCredentials).toBe(true);
    } finally {
      await withPassword.close();
      await withoutPassword.close();
      if (previous === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = previous;
    }
  });
});
