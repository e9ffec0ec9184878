import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { dataSourceKey, KnowledgeStore, type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNlqMcpServer } from "../nlq-mcp-server";
import { connectRole, type RoleConnection } from "../role-connection";

// read_knowledge and propose_knowledge through a real MCP client (issue 27 item 2): a role reads only the entries
// whose every table and column it may read; what it proposes waits, unused, until an administrator accepts it.
const fixture = path.join(import.meta.dirname, "../fixtures/knowledge-model.json");
const alice = `nlq_mcp_kn_alice_${process.pid}`;
const admin = `nlq_mcp_kn_admin_${process.pid}`;
const administrators = `nlq_mcp_kn_admins_${process.pid}`;
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let connection: RoleConnection;
let client: Client;
let dataSource: string;
const administrator = { role: admin, administrator: true };

beforeAll(async () => {
  for (const role of [alice, admin, administrators]) await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_mcp_knowledge",
    `CREATE SCHEMA analytics;
     CREATE TABLE analytics.orders (order_id integer PRIMARY KEY, total_cents bigint);
     CREATE TABLE analytics.dim_customers (customer_id integer PRIMARY KEY, region text);
     CREATE ROLE ${alice} LOGIN; CREATE ROLE ${admin} LOGIN; CREATE ROLE ${administrators};
     GRANT ${administrators} TO ${admin};
     GRANT USAGE ON SCHEMA analytics TO ${alice};
     GRANT SELECT ON analytics.dim_customers TO ${alice};`,
  );
  dataSource = dataSourceKey(database.urlFor(alice));
  metadata = await createTestDatabase("nlq_mcp_knowledge_metadata");
  store = await openMetadataStore({ settings: { metadataUrl: metadata.url } });
  const knowledge = new KnowledgeStore(store.database);
  for (const entry of [
    {
      kind: "metric" as const,
      name: "revenue",
      text: "Order totals in euros.",
      sql: "sum(total_cents) / 100.0",
      references: ["analytics.orders.total_cents"],
    },
    {
      kind: "term" as const,
      name: "key account",
      text: "A customer in region EMEA.",
      references: ["analytics.dim_customers.region"],
    },
    { kind: "rule" as const, name: "fiscal year", text: "The fiscal year starts on 1 April.", references: [] },
  ]) {
    await knowledge.save({ ...entry, dataSource, origin: "manual" }, administrator);
  }
  connection = await connectRole(database.urlFor(alice));
  const settings = { ...loadSettings({ NLQ_MODEL: `scripted:${fixture}` }), summarizeAnswer: false };
  const server = createNlqMcpServer(
    connection.role,
    {
      settings,
      settingsForPreset: () => settings,
      metadataStore: store,
      maxRows: 10,
      administratorRole: administrators,
    },
    "test",
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: "nlq-knowledge-test", version: "1.0.0" });
  await client.connect(clientTransport);
});
afterAll(async () => {
  await client?.close();
  await connection?.close();
  await store?.close();
  await database?.drop();
  await metadata?.drop();
  for (const role of [alice, admin, administrators]) await dropTestRole(role);
});

interface ToolValue {
  readonly entries: { name: string; shared: boolean; yours: boolean }[];
  readonly knowledgeUsed?: { kind: string; name: string }[];
  readonly suggestion: { id: string };
}

async function call(name: string, args: Record<string, unknown>): Promise<{ error?: string; value: ToolValue }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return result.isError ? { error: text, value: {} as ToolValue } : { value: JSON.parse(text) as ToolValue };
}

const names = (value: ToolValue) => value.entries.map((entry) => entry.name).sort();

describe("read_knowledge and propose_knowledge", () => {
  it("reads only entries whose every table and column the role may read, with filters", async () => {
    const all = await call("read_knowledge", {});
    expect(all.error).toBeUndefined();
    expect(names(all.value)).toEqual(["fiscal year", "key account"]);
    expect(all.value.entries[0]).not.toHaveProperty("author");
    expect(all.value.entries.every((entry) => entry.shared && !entry.yours)).toBe(true);
    expect(names((await call("read_knowledge", { kind: "rule" })).value)).toEqual(["fiscal year"]);
    expect(names((await call("read_knowledge", { query: "EMEA customer" })).value)).toEqual(["key account"]);
    expect(names((await call("read_knowledge", { kind: "metric" })).value)).toEqual([]);
  });

  it("keeps a proposal as a suggestion no answer uses until an administrator accepts it", async () => {
    const refused = await call("propose_knowledge", {
      kind: "metric",
      name: "average order",
      text: "Mean order total.",
      sql: "avg(total_cents)",
      references: ["analytics.orders.total_cents"],
    });
    expect(refused.error).toContain("UnreadableReferenceError (42501): you may not read analytics.orders.total_cents");

    const proposed = await call("propose_knowledge", {
      kind: "description",
      name: "analytics.dim_customers.region",
      text: "Sales region: EMEA, AMER or APAC.",
    });
    expect(proposed.error).toBeUndefined();
    expect(proposed.value.suggestion).toMatchObject({
      kind: "description",
      references: ["analytics.dim_customers.region"],
      suggested: true,
      yours: true,
      origin: "suggestion",
    });
    expect(names((await call("read_knowledge", {})).value)).toEqual(["fiscal year", "key account"]);

    const knowledge = new KnowledgeStore(store.database);
    const waiting = await knowledge.suggestions(dataSource, administrator);
    expect(waiting.map((row) => [row.name, row.suggestedBy])).toEqual([["analytics.dim_customers.region", alice]]);
    await knowledge.accept(dataSource, proposed.value.suggestion.id, administrator);
    expect(names((await call("read_knowledge", {})).value)).toEqual([
      "analytics.dim_customers.region",
      "fiscal year",
      "key account",
    ]);
  });

  it("says in ask's result which definitions reached the answer's prompts, never one the role may not read", async () => {
    const asked = await call("ask", {
      question: "How many customers are there per region this fiscal year?",
      preset: "fast",
    });
    expect(asked.error).toBeUndefined();
    const used = asked.value.knowledgeUsed ?? [];
    expect(used).toContainEqual(expect.objectContaining({ kind: "rule", name: "fiscal year" }));
    expect(used.some((entry) => entry.name === "revenue")).toBe(false);
  });
});
