import { randomBytes } from "node:crypto";
import type { PipelineEvent } from "@nlq/engine";
import {
  answerQuestion,
  createEmbeddedVectorStore,
  createOfflineEmbeddingModel,
  loadSettings,
  schemaSelectionPresets,
} from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { indexCatalog } from "./index-catalog";
import { loadCatalog } from "./load-catalog";
import { prepareIndexedQuestion } from "./prepare-indexed-question";

// Issue 6, reproduction 5: an index built by a superuser must not put rows that row-level security hides from the
// asking role into that role's prompts (examples, value-index hits), nor values of a column it may not select.
const role = `nlq_rls_${randomBytes(4).toString("hex")}`;
const hidden = "HIDDENRLS Zanzibar-Quokka-4411";
const longOwn = "Own label long enough to be shortened in the samples";
const setup = `
CREATE TABLE account (id integer PRIMARY KEY, owner name NOT NULL, label text, secret_note text);
INSERT INTO account VALUES
  (1, '${role}', 'Own Visible-Label', 'own note'),
  (2, '${role}', '${longOwn}', 'own note'),
  (3, 'someone_else', '${hidden}', 'HIDDENCOL note');
ALTER TABLE account ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON account FOR SELECT USING (owner = current_user);
CREATE ROLE ${role} LOGIN;
GRANT SELECT (id, owner, label) ON account TO ${role};
ANALYZE;
`;

/** Mock models for every step, recording each prompt they receive. */
function recordingModels() {
  const prompts: string[] = [];
  const outputs: Record<string, unknown> = {
    "extract-keywords": { keywords: ["Zanzibar Quokka", "Visible Label"] },
    "filter-column": { columns: [] },
    "select-tables": { chain_of_thought_reasoning: "one table", table_names: ["account"] },
    "select-columns": { tables: [{ table: "account", columns: ["label", "owner"] }] },
    "generate-candidate": { reasoning: "labels", sql: "SELECT label FROM account" },
  };
  const resolveModel = (step: string) => ({
    id: `mock:${step}`,
    scripted: false,
    model: mockTextModel((call) => {
      prompts.push(`${step}: ${JSON.stringify(call.prompt)}`);
      if (!(step in outputs)) throw new Error(`unexpected step ${step}`);
      return JSON.stringify(outputs[step]);
    }),
  });
  return { prompts, resolveModel, text: () => prompts.join("\n") };
}

describe("values in prompts under row-level security", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let superuser: pg.Client;
  let limited: pg.Client;
  const vectorStore = createEmbeddedVectorStore();

  beforeAll(async () => {
    database = await createTestDatabase("nlq_rls_values", setup);
    store = await openMetadataStore({ directory: "memory://" });
    superuser = new pg.Client({ connectionString: database.url });
    limited = new pg.Client({ connectionString: database.urlFor(role) });
    await superuser.connect();
    await limited.connect();
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    await indexCatalog({
      executor: createPgExecutor(superuser),
      database: store.database,
      dataSourceId: dataSource.id,
      vectorStore,
      embeddingModel: createOfflineEmbeddingModel(),
    });
  });

  afterAll(async () => {
    await superuser?.end();
    await limited?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(role);
  });

  const ask = async (client: pg.Client, minimumColumns: number, indexed = true) => {
    const session = createPgExecutor(client);
    const models = recordingModels();
    const events: PipelineEvent[] = [];
    const prepared = indexed
      ? await prepareIndexedQuestion({
          store,
          url: database.urlFor(client === superuser ? "postgres" : role),
          session,
          vectorStore,
          minimumColumns,
          steps: schemaSelectionPresets.balanced,
          settings: loadSettings({}),
        })
      : {};
    const answer = await answerQuestion({
      question: "Which accounts are labelled like Zanzibar Quokka?",
      session,
      settings: loadSettings({}),
      resolveModel: models.resolveModel,
      onEvent: (event) => events.push(event),
      ...prepared,
    });
    return { prompts: models.text(), events: JSON.stringify(events), prepared, answer };
  };

  it("shows the limited role its own rows' examples from the index, never hidden rows' (live introspection too)", async () => {
    const indexed = await ask(limited, 1_000);
    expect(indexed.prepared.schemaSelector?.name).toBe("chess-retrieval"); // shown whole; value hits checked too
    expect(indexed.prompts).toContain("examples: 'Own Visible-Label', 'Own label long enough to be shortened in…'");
    expect(indexed.prompts).toContain(role);
    for (const leak of ["HIDDENRLS", "someone_else", "HIDDENCOL", "secret_note"])
      expect(indexed.prompts).not.toContain(leak);
    expect(indexed.answer.result.rows).toEqual([["Own Visible-Label"], [longOwn]]);

    const live = await ask(limited, 1_000, false);
    expect(live.prompts).toContain("'Own Visible-Label'");
    for (const leak of ["HIDDENRLS", "someone_else", "HIDDENCOL"]) expect(live.prompts).not.toContain(leak);

    const loaded = await loadCatalog({
      store,
      dataSource: { id: await dataSourceId() },
      session: createPgExecutor(limited),
    });
    expect(loaded.source).toBe("index");
    expect(JSON.stringify(loaded.catalog)).not.toContain("HIDDENRLS");
    expect(loaded.catalog.tables[0]?.columns.find((column) => column.name === "label")?.sampleValues).toEqual([
      "Own Visible-Label",
      "Own label long enough to be shortened in…",
    ]);
  });

  it("reads a small catalog's examples again under the asking role: a value renamed since indexing shows as it is now", async () => {
    await superuser.query("UPDATE account SET label = 'Renamed Own-Label' WHERE id = 1");
    try {
      const run = await ask(limited, 1_000);
      expect(run.prompts).toContain("'Renamed Own-Label'");
      expect(run.prompts).not.toContain("'Own Visible-Label'");
      for (const leak of ["HIDDENRLS", "someone_else", "HIDDENCOL"]) expect(run.prompts).not.toContain(leak);
    } finally {
      await superuser.query("UPDATE account SET label = 'Own Visible-Label' WHERE id = 1");
    }
  });

  it("keeps the selector's inputs, value hits, events and hint free of hidden rows; the superuser gets the hit", async () => {
    const limitedRun = await ask(limited, 0);
    expect(limitedRun.prepared.schemaSelector).toBeDefined();
    expect(limitedRun.prompts).toContain("filter-column:");
    expect(limitedRun.prompts).toContain("select-tables:");
    expect(limitedRun.prompts).toContain("Own Visible-Label");
    // A stored example (shortened at indexing), checked under the role: the selector shows it for the chosen table.
    expect(limitedRun.prompts).toContain("Own label long enough to be shortened in…");
    for (const leak of ["HIDDENRLS", "Zanzibar-Quokka", "someone_else", "HIDDENCOL"]) {
      expect(limitedRun.prompts).not.toContain(leak);
      expect(limitedRun.events).not.toContain(leak);
    }

    const superuserRun = await ask(superuser, 0);
    expect(superuserRun.events).toContain(`"value":"${hidden}"`);
    expect(superuserRun.prompts).toContain(`public.account.label = '${hidden}'`);
  });

  async function dataSourceId(): Promise<string> {
    return (await ensureDataSource(store.database, { url: database.url })).id;
  }
});
