import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { dataSourceKey, type MetadataStore, openMetadataStore } from "@nlq/adapters";
import {
  uncheckedAuditEntries as auditEntries,
  createTestDatabase,
  dropTestRole,
  type TestDatabase,
} from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttpServer } from "./http-server";

// The audit trail over Streamable HTTP (issue 19 item 5): the ask tool records the role the client logged in as, the
// request's address and the client's name from `initialize`.
const fixture = path.join(import.meta.dirname, "fixtures", "mcp-model.json");
const analyst = { role: `mcp_audit_${randomBytes(4).toString("hex")}`, password: "analyst-secret" };
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let server: McpHttpServer;
let client: Client | undefined;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_mcp_audit",
    `CREATE ROLE ${analyst.role} LOGIN PASSWORD '${analyst.password}';
     CREATE TABLE accounts (id integer PRIMARY KEY, owner name NOT NULL, region text NOT NULL);
     INSERT INTO accounts SELECT i, 'owner' || i, 'Region ' || i FROM generate_series(1, 5) AS i;
     GRANT SELECT ON accounts TO ${analyst.role};`,
  );
  metadata = await createTestDatabase("nlq_mcp_audit_store");
  store = await openMetadataStore({ url: metadata.url });
  server = await startMcpHttpServer({
    port: 0,
    url: database.url,
    tools: {
      settings: loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast" }),
      settingsForPreset: (preset) => loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: preset }),
      metadataStore: store,
      maxRows: 100,
    },
    version: "test",
    // The shared test server logs roles in by trust.
    allowUncheckedPasswords: true,
  });
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  await store?.close();
  await metadata?.drop();
  await database?.drop();
  await dropTestRole(analyst.role);
});

describe("the MCP server's audit trail over HTTP", () => {
  it("records the ask call with surface mcp, the client's role, address and name", async () => {
    client = new Client({ name: "claude-desktop-test", version: "1.0.0" });
    const authorization = `Basic ${Buffer.from(`${analyst.role}:${analyst.password}`).toString("base64")}`;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.endpoint), {
        requestInit: { headers: { Authorization: authorization } },
      }),
    );
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "Which regions are my accounts in?" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await store.auditTrail.flush()).toBe(true);
    const entries = await auditEntries(store.database, {
      dataSource: dataSourceKey(database.url),
      role: analyst.role,
      limit: 10,
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      surface: "mcp",
      role: analyst.role,
      applicationName: "claude-desktop-test",
      question: "Which regions are my accounts in?",
      ok: true,
    });
    expect(entries[0]?.clientAddress).toMatch(/127\.0\.0\.1|::1/);
  });
});
