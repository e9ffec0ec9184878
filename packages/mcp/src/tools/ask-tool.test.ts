import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { dataSourceKey, type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { uncheckedAuditEntries as auditEntries, createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNlqMcpServer } from "../nlq-mcp-server";
import { connectRole, type RoleConnection } from "../role-connection";

const fixture = path.join(import.meta.dirname, "../fixtures/mcp-model.json");
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let connection: RoleConnection;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_mcp_ask",
    `CREATE TABLE accounts (id integer PRIMARY KEY, owner name NOT NULL, region text NOT NULL);
     INSERT INTO accounts SELECT i, 'owner' || i, 'Region ' || i FROM generate_series(1, 5) AS i;
     CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2));
     INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);`,
  );
  metadata = await createTestDatabase("nlq_mcp_ask_metadata");
  store = await openMetadataStore({ settings: { metadataUrl: metadata.url } });
  connection = await connectRole(database.url);
  const server = createNlqMcpServer(
    connection.role,
    {
      settings: loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast" }),
      settingsForPreset: (preset) => loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: preset }),
      metadataStore: store,
      maxRows: 2,
    },
    "test",
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: "nlq-test", version: "1.0.0" });
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client?.close();
  await connection?.close();
  await store?.close();
  await database?.drop();
  await metadata?.drop();
});

describe("the ask tool", () => {
  it("answers through the pipeline with the metadata store, caps the rows and logs the question as mcp", async () => {
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "Which regions are my accounts in?" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const first = result.content[0];
    const answer = JSON.parse(first?.type === "text" ? first.text : "{}");
    expect(answer.rows).toEqual([
      ["owner1", "Region 1"],
      ["owner2", "Region 2"],
    ]);
    expect(answer.truncated).toBe(true);
    expect(answer.selection.candidates).toBe(1);

    const logged = new pg.Client({ connectionString: metadata.url });
    await logged.connect();
    try {
      const rows = await logged.query("SELECT question, ok, rows, origin FROM query_log");
      expect(rows.rows).toEqual([{ question: "Which regions are my accounts in?", ok: true, rows: 5, origin: "mcp" }]);
    } finally {
      await logged.end();
    }
  });

  it("records the question in the audit trail as surface mcp, the connection's role, a row count and no rows", async () => {
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "Which regions are my accounts in?" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await store.auditTrail.flush()).toBe(true);
    const entries = await auditEntries(store.database, {
      dataSource: dataSourceKey(database.url),
      role: connection.roleName,
      surface: "mcp",
      limit: 10,
    });
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries[0]).toMatchObject({
      surface: "mcp",
      role: connection.roleName,
      applicationName: "nlq-test",
      ok: true,
      rows: 5,
    });
    expect(JSON.stringify(entries)).not.toContain("Region 1");
  });

  it("carries the interpretations when the balanced preset's generators disagree, and that nlq would ask", async () => {
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "How expensive are the products?", preset: "balanced" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const first = result.content[0];
    const answer = JSON.parse(first?.type === "text" ? first.text : "{}");
    expect(answer.sql).toBe("SELECT avg(price) AS price FROM products");
    expect(answer.needsChoice).toBe(true);
    expect(answer.choiceBasis).toEqual(expect.any(String));
    expect(answer.answer).toBe("The products cost 15.50 on average.");
    expect(
      answer.interpretations.map((reading: { sql: string; support: number }) => [reading.sql, reading.support]),
    ).toEqual([
      ["SELECT avg(price) AS price FROM products", 1],
      ["SELECT max(price) AS price FROM products", 1],
      ["SELECT name, price FROM products ORDER BY price DESC", 1],
    ]);
    expect(answer.interpretations[1].difference).toContain("max(price) instead of avg(price)");
    expect(answer.candidates).toHaveLength(3);
  });

  it("refuses a preset that is not a built-in name (no file is read for a client)", async () => {
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "Which regions are my accounts in?", preset: "/etc/passwd" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
  });

  it("refuses a question over the length limit before any work", async () => {
    const result = (await client.callTool({
      name: "ask",
      arguments: { question: "x".repeat(5_000) },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("54000");
  });
});
