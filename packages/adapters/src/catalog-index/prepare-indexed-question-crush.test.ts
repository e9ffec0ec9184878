import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PipelineEvent } from "@nlq/engine";
import {
  createEmbeddedVectorStore,
  createOfflineEmbeddingModel,
  createStepContext,
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
import { type IndexedQuestionOptions, prepareIndexedQuestion } from "./prepare-indexed-question";

const role = `nlq_crush_reader_${randomBytes(4).toString("hex")}`;
const setup = `
CREATE SCHEMA fleet;
CREATE TABLE fleet.ship (ship_id integer PRIMARY KEY, ship_name text, tonnage integer);
CREATE TABLE fleet.harbour (port_code text PRIMARY KEY, harbour_name text, country text);
CREATE TABLE fleet.voyage (voyage_id integer PRIMARY KEY, ship_id integer REFERENCES fleet.ship, departed_on date,
  port_code text REFERENCES fleet.harbour);
CREATE TABLE fleet.crew_member (crew_id integer PRIMARY KEY, ship_id integer REFERENCES fleet.ship, full_name text,
  crew_rank text);
CREATE TABLE fleet.freight_item (item_no integer PRIMARY KEY, voyage_id integer REFERENCES fleet.voyage,
  goods text, weight_kg numeric);
INSERT INTO fleet.ship VALUES (1, 'Nordstern', 5000), (2, 'Aurora', 7000);
INSERT INTO fleet.harbour VALUES ('HAM', 'Hamburg', 'Germany'), ('RTM', 'Rotterdam', 'Netherlands');
INSERT INTO fleet.voyage VALUES (1, 1, '2024-01-02', 'HAM'), (2, 2, '2024-02-03', 'RTM');
INSERT INTO fleet.crew_member VALUES (1, 1, 'Ada Berg', 'captain');
INSERT INTO fleet.freight_item VALUES (1, 1, 'coffee', 1200), (2, 2, 'timber', 9000);
CREATE ROLE ${role} LOGIN;
GRANT SELECT ON fleet.ship, fleet.harbour, fleet.voyage, fleet.crew_member TO ${role};
-- Unrelated tables, so that description and value retrieval do not reach every table.
CREATE SCHEMA clinic;
CREATE SCHEMA finance;
CREATE SCHEMA library;
CREATE SCHEMA music;
CREATE SCHEMA retail;
CREATE SCHEMA school;
CREATE SCHEMA sports;
CREATE SCHEMA weather;
CREATE TABLE school.student (student_id integer PRIMARY KEY, first_name text, birth_year integer);
CREATE TABLE school.course (course_id integer PRIMARY KEY, title text, credits integer);
CREATE TABLE school.enrolment (student_id integer, course_id integer, grade text);
CREATE TABLE school.teacher (teacher_id integer PRIMARY KEY, surname text, subject text);
CREATE TABLE library.book (isbn text PRIMARY KEY, title text, published_year integer);
CREATE TABLE library.author (author_id integer PRIMARY KEY, pen_name text, nationality text);
CREATE TABLE library.loan (loan_id integer PRIMARY KEY, isbn text, due_date date);
CREATE TABLE music.album (album_id integer PRIMARY KEY, album_title text, genre text);
CREATE TABLE music.track (track_id integer PRIMARY KEY, album_id integer, duration_seconds integer);
CREATE TABLE music.artist (artist_id integer PRIMARY KEY, stage_name text, debut_year integer);
CREATE TABLE clinic.patient (patient_id integer PRIMARY KEY, birth_date date, blood_type text);
CREATE TABLE clinic.appointment (appointment_id integer PRIMARY KEY, patient_id integer, scheduled_at timestamp);
CREATE TABLE clinic.prescription (prescription_id integer PRIMARY KEY, patient_id integer, drug text, dosage_mg integer);
CREATE TABLE retail.store (store_id integer PRIMARY KEY, city text, opened_on date);
CREATE TABLE retail.customer (customer_id integer PRIMARY KEY, email text, loyalty_tier text);
CREATE TABLE retail.purchase (purchase_id integer PRIMARY KEY, customer_id integer, total_price numeric);
CREATE TABLE retail.product (product_id integer PRIMARY KEY, product_name text, unit_price numeric);
CREATE TABLE sports.team (team_id integer PRIMARY KEY, team_name text, founded integer);
CREATE TABLE sports.player (player_id integer PRIMARY KEY, team_id integer, position text, height_cm integer);
CREATE TABLE sports.match (match_id integer PRIMARY KEY, home_team integer, away_team integer, score text);
CREATE TABLE finance.account (account_id integer PRIMARY KEY, iban text, balance numeric);
CREATE TABLE finance.transfer (transfer_id integer PRIMARY KEY, account_id integer, amount numeric, booked_on date);
CREATE TABLE weather.station (station_id integer PRIMARY KEY, latitude numeric, longitude numeric);
CREATE TABLE weather.reading (station_id integer, measured_at timestamp, temperature_c numeric, rainfall_mm numeric);
GRANT USAGE ON SCHEMA fleet, school, library, music, clinic, retail, sports, finance, weather TO ${role};
ANALYZE;
`;

/** Tables in the catalog: 5 of the fleet, 24 unrelated. */
const allTables = 29;

/** The question, and what a model might hallucinate for it: plausible names, none of them the real (gold) ones. */
const question = "Which vessels sailed from Hamburg with the heaviest loads?";
const hallucination = { tables: ["Vessels(vessel_id, vessel_name)", "Shipments(shipment_id, vessel_id, load_weight)"] };

function mockHallucination(onPrompt?: (step: string) => void) {
  return (step: string) => {
    onPrompt?.(step);
    return { model: mockTextModel(JSON.stringify(hallucination)), id: "mock:model", scripted: false };
  };
}

/**
 * CRUSH in the live path: `prepareIndexedQuestion` over a real indexed PostgreSQL database builds the selector with
 * CRUSH's collective retrieval; a mock model (not a real one) answers `hallucinate-schema` with names that are not the
 * gold columns.
 */
describe("prepareIndexedQuestion runs CRUSH in the retrieval stage", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let store: MetadataStore;
  let fixtureDirectory: string;
  const vectorStore = createEmbeddedVectorStore();

  beforeAll(async () => {
    database = await createTestDatabase("nlq_crush_live", setup);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    store = await openMetadataStore({ directory: "memory://" });
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    await indexCatalog({
      executor: createPgExecutor(client),
      database: store.database,
      dataSourceId: dataSource.id,
      vectorStore,
      embeddingModel: createOfflineEmbeddingModel(),
      force: true,
    });
    fixtureDirectory = await mkdtemp(path.join(tmpdir(), "nlq-crush-live-"));
  });

  afterAll(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(role);
    if (fixtureDirectory) await rm(fixtureDirectory, { recursive: true, force: true });
  });

  async function selectedTables(
    overrides: Partial<IndexedQuestionOptions>,
    context: ReturnType<typeof createStepContext>,
    session = createPgExecutor(client),
  ): Promise<string[]> {
    const prepared = await prepareIndexedQuestion({
      store,
      url: database.url,
      session,
      vectorStore,
      minimumColumns: 0,
      steps: schemaSelectionPresets.none,
      learnedRetrieval: false,
      settings: context.settings,
      ...overrides,
    });
    const selected = await prepared.schemaSelector!.select({ catalog: prepared.catalog!, context });
    return selected.catalog.tables.map((table) => `${table.schema}.${table.name}`).sort();
  }

  function contextWith(options: { resolveModel?: ReturnType<typeof mockHallucination>; model?: string }) {
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question,
      // The lexical embedder, so that description retrieval alone cannot reach the freight table (the word vectors
      // relate "cargo" to its "goods"): this test is about what CRUSH adds.
      settings: loadSettings({
        NLQ_EMBEDDING_MODEL: "builtin:lexical",
        ...(options.model ? { NLQ_MODEL: options.model } : {}),
      }),
      ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}),
      onEvent: (event) => events.push(event),
    });
    return { context, events };
  }

  it("keeps a table only CRUSH finds from a hallucination that names no real column", async () => {
    const steps: string[] = [];
    const withoutCrush = await selectedTables(
      { crush: false },
      contextWith({ resolveModel: mockHallucination() }).context,
    );
    expect(withoutCrush).not.toContain("fleet.freight_item");

    const { context, events } = contextWith({ resolveModel: mockHallucination((step) => steps.push(step)) });
    const withCrush = await selectedTables({}, context);
    expect(steps).toEqual(["hallucinate-schema"]);
    expect(withCrush).toContain("fleet.freight_item");
    expect(withCrush.length).toBeLessThan(allTables); // still narrowed
    expect(events.find((event) => event.type === "crush-start")).toEqual({ type: "crush-start", budget: 40 });
    const end = events.find((event) => event.type === "crush-end");
    expect(end).toMatchObject({ hallucinated: hallucination.tables });
    expect(end).not.toHaveProperty("fallbackReason");
  });

  it("drops CRUSH's picks of tables the asking role cannot read", async () => {
    const reader = new pg.Client({ connectionString: database.urlFor(role) });
    await reader.connect();
    try {
      const { context, events } = contextWith({ resolveModel: mockHallucination() });
      const asReader = await selectedTables({ url: database.urlFor(role) }, context, createPgExecutor(reader));
      expect(asReader).not.toContain("fleet.freight_item");
      expect(events.find((event) => event.type === "crush-end")).toMatchObject({ hallucinated: hallucination.tables });
    } finally {
      await reader.end();
    }
  });

  it("falls back to the other retrieval when the scripted fixture has no hallucinate-schema response", async () => {
    const fixture = path.join(fixtureDirectory, "no-hallucination.json");
    await writeFile(
      fixture,
      JSON.stringify({
        description: "Scripted, not a language model: no hallucinate-schema response.",
        responses: [{ step: "generate-candidate", question: "*", output: { reasoning: "", sql: "SELECT 1" } }],
      }),
    );
    const withoutCrush = await selectedTables({ crush: false }, contextWith({}).context);
    const { context, events } = contextWith({ model: `scripted:${fixture}` });
    const fallback = await selectedTables({}, context);
    expect(fallback).toEqual(withoutCrush);
    expect(fallback.length).toBeLessThan(allTables); // the other retrieval still narrows
    expect(events.find((event) => event.type === "crush-end")).toEqual({
      type: "crush-end",
      hallucinated: [],
      columns: 0,
      fallbackReason: expect.stringContaining('no response for step "hallucinate-schema"'),
    });
  });
});
