import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  dataSourceKey,
  KnowledgeStore,
  type MetadataStore,
  openMetadataStore,
  VerifiedExampleStore,
} from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNlqMcpServer } from "../nlq-mcp-server";
import { connectRole, type RoleConnection } from "../role-connection";

// Issue 19 item 2 over MCP: a client that declares elicitation is asked which reading was meant when the candidates
// leave the choice open; its pick runs as the role and keeps nothing, unless the form's "use this from now on" is
// checked (rules 2 and 3 of docs/decisions/2026-12-01-readings-knowledge-and-teaching.md).
const fixture = path.join(import.meta.dirname, "../fixtures/mcp-model.json");
const question = "How expensive are the products?";
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let connection: RoleConnection;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_mcp_elicit",
    `CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2));
     INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);`,
  );
  metadata = await createTestDatabase("nlq_mcp_elicit_metadata");
  store = await openMetadataStore({ settings: { metadataUrl: metadata.url } });
  connection = await connectRole(database.url);
});
afterAll(async () => {
  await connection?.close();
  await store?.close();
  await database?.drop();
  await metadata?.drop();
});

async function askWith(
  reply: ElicitResult | undefined,
): Promise<{ answer: Record<string, unknown>; asked: unknown[] }> {
  const server = createNlqMcpServer(
    connection.role,
    {
      settings: loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "balanced" }),
      settingsForPreset: (preset) => loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: preset }),
      metadataStore: store,
      maxRows: 10,
    },
    "test",
  );
  const asked: unknown[] = [];
  const client = new Client(
    { name: "nlq-elicit-test", version: "1.0.0" },
    reply === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (reply !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return reply;
    });
  }
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const result = (await client.callTool({ name: "ask", arguments: { question } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const first = result.content[0];
    return { answer: JSON.parse(first?.type === "text" ? first.text : "{}"), asked };
  } finally {
    await client.close();
  }
}

describe("ask with elicitation", () => {
  const kept = async () => [
    ...(await new VerifiedExampleStore(store.database).visibleTo(dataSourceKey(database.url), "postgres")),
    ...(await new KnowledgeStore(store.database).visibleTo(dataSourceKey(database.url), "postgres")),
  ];

  it("asks a client that supports elicitation which reading was meant and runs the pick, keeping nothing", async () => {
    const { answer, asked } = await askWith({ action: "accept", content: { interpretation: "2" } });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain("returns max(price) instead of avg(price)");
    expect(JSON.stringify(asked[0])).toContain("Use this from now on");
    expect(answer.sql).toBe("SELECT max(price) AS price FROM products");
    expect(answer.rows).toEqual([["30.00"]]);
    expect((answer.selection as { selector: string }).selector).toBe("user");
    expect(answer.remembered).toBeUndefined();
    expect(await kept()).toEqual([]);
  });

  it("keeps the pick when the form's 'use this from now on' is checked, and says what it kept", async () => {
    const { answer } = await askWith({ action: "accept", content: { interpretation: "2", remember: true } });
    expect(answer.sql).toBe("SELECT max(price) AS price FROM products");
    // Readings that differ in their SQL, not in one phrase: the example alone, for every role (postgres is a superuser).
    expect(answer.remembered).toBe(
      "remembered for every role: reading #2's SQL as the verified answer to this question (its readings differed in their SQL, not in the meaning of one phrase).",
    );
    const [example] = await kept();
    expect(example).toMatchObject({
      question,
      sql: "SELECT max(price) AS price FROM products",
      source: "picked",
      sharedWithAllRoles: true,
      provenance: "picked from 3 readings by postgres",
    });
  });

  it("keeps nlq's reading when the user declines, and never asks a client without elicitation", async () => {
    const declined = await askWith({ action: "decline" });
    expect(declined.asked).toHaveLength(1);
    expect(declined.answer.sql).toBe("SELECT avg(price) AS price FROM products");
    const plain = await askWith(undefined);
    expect(plain.answer.sql).toBe("SELECT avg(price) AS price FROM products");
    expect((plain.answer.interpretations as unknown[]).length).toBe(3);
  });
});
