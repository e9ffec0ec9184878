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
import type { AskResult } from "./ask-tool";

// Rules 2 and 3 of docs/decisions/2026-12-01-readings-knowledge-and-teaching.md over MCP, through a real MCP client:
// `ask` offers both readings of «name»; `choose_reading {number}` answers with #2 and keeps nothing;
// `choose_reading {number, remember: true}` keeps it as the role's confirmed reading, which a later `ask` follows.
// Scripted model (no language
// model): each generator writes what its prompt's reading says.
const fixture = path.join(import.meta.dirname, "../fixtures/mcp-model.json");
const role = `nlq_mcp_choose_${process.pid}`;
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let connection: RoleConnection;
let client: Client;

beforeAll(async () => {
  await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_mcp_choose",
    `CREATE TABLE singer (singer_id integer PRIMARY KEY, artist_name text NOT NULL, performer_name text NOT NULL,
                          country text NOT NULL);
     INSERT INTO singer VALUES (1, 'Robyn Fenty', 'Rihanna', 'Barbados'), (2, 'Abel Tesfaye', 'The Weeknd', 'Canada'),
                               (3, 'Aubrey Graham', 'Drake', 'Canada');
     CREATE ROLE ${role} LOGIN; GRANT SELECT ON singer TO ${role};`,
  );
  metadata = await createTestDatabase("nlq_mcp_choose_metadata");
  store = await openMetadataStore({ settings: { metadataUrl: metadata.url } });
  connection = await connectRole(database.urlFor(role));
  const settings = {
    ...loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "balanced" }),
    summarizeAnswer: false,
  };
  const server = createNlqMcpServer(
    connection.role,
    { settings, settingsForPreset: () => settings, metadataStore: store, maxRows: 10 },
    "test",
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: "nlq-choose-test", version: "1.0.0" });
  await client.connect(clientTransport);
});
afterAll(async () => {
  await client?.close();
  await connection?.close();
  await store?.close();
  await database?.drop();
  await metadata?.drop();
  await dropTestRole(role);
});

/** A tool's result: its error text, or the answer it returned. */
async function call(name: string, args: Record<string, unknown>): Promise<{ error?: string; value: AskResult }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return result.isError ? { error: text, value: {} as AskResult } : { value: JSON.parse(text) as AskResult };
}

describe("choose_reading", () => {
  it("refuses before any ask, then answers with another reading, keeping it only when asked to", async () => {
    const early = await call("choose_reading", { number: 2 });
    expect(early.error).toContain("(22023): nothing to choose reading #2 from");

    const asked = await call("ask", { question: "What is the name of every singer from Canada?" });
    expect(asked.value.rows).toEqual([["Abel Tesfaye"], ["Aubrey Graham"]]);
    expect(asked.value.needsChoice).toBe(true);
    expect(asked.value.confidence).toBeLessThan(1);
    expect(asked.value.interpretations?.map((reading) => reading.reading?.chosen.label)).toEqual([
      "singer.artist_name",
      "singer.performer_name",
    ]);
    expect(asked.value.readings).toHaveLength(2);

    const chosen = await call("choose_reading", { number: 2 });
    expect(chosen.value.rows).toEqual([["Drake"], ["The Weeknd"]]);
    expect(chosen.value.selection.selector).toBe("user");
    expect(chosen.value.remembered).toBeUndefined();
    expect(await new KnowledgeStore(store.database).visibleTo(dataSourceKey(database.url), role)).toEqual([]);

    const missing = await call("choose_reading", { number: 5 });
    expect(missing.error).toContain("(22023)");

    const kept = await call("choose_reading", { number: 2, remember: true });
    expect(kept.value.rows).toEqual([["Drake"], ["The Weeknd"]]);
    expect(kept.value.remembered).toMatch(
      /^remembered for you: "name" means singer\.performer_name, not singer\.artist_name\. Later questions/,
    );
    const [entry] = await new KnowledgeStore(store.database).visibleTo(dataSourceKey(database.url), role);
    expect(entry).toMatchObject({
      kind: "reading",
      name: "name",
      author: role,
      sharedWithAllRoles: false,
      reading: { chosen: { label: "singer.performer_name" } },
    });

    // A later question that hinges on «name» follows the confirmation without asking, and says so.
    const later = await call("ask", { question: "What is the name of every singer from Barbados?" });
    expect(later.value.rows).toEqual([["Rihanna"]]);
    expect(later.value.needsChoice).toBe(false);
    expect(later.value.interpretations).toBeUndefined();
    expect(later.value.followedConfirmations).toEqual([
      expect.objectContaining({
        phrase: "name",
        confirmedBy: "you",
        chosen: expect.objectContaining({ label: "singer.performer_name" }),
      }),
    ]);
  });
});
