import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import type { Catalog, TableInfo } from "../catalog/catalog-types";
import { schemaSelectionPresets } from "../config/schema-selection-steps";
import { loadSettings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import { createStepContext } from "../llm/step-context";
import { createScriptedModel } from "../models/scripted-model";
import { ValueIndexBuilder } from "../retrieval/values/value-index-builder";
import { type ValueProbe, valueProbeKey } from "../retrieval/values/value-visibility-statement";
import { renderSchema } from "../schema/render-schema";
import { catalogTable } from "../testing/catalog-table";
import { mockTextModel } from "../testing/mock-text-model";
import { createChessSchemaSelector } from "./chess-schema-selector";

const table = (name: string, columns: string[], extra: Partial<TableInfo> = {}) =>
  catalogTable("public", name, columns, extra);

const catalog: Catalog = {
  tables: [
    table("singer", ["singer_id", "name", "country", "age"], { primaryKey: ["singer_id"] }),
    table("concert", ["concert_id", "concert_name", "year", "stadium_id"], {
      primaryKey: ["concert_id"],
      foreignKeys: [
        {
          name: "c_s",
          columns: ["stadium_id"],
          referencedSchema: "public",
          referencedTable: "stadium",
          referencedColumns: ["stadium_id"],
        },
      ],
    }),
    table("singer_in_concert", ["concert_id", "singer_id"], {
      primaryKey: ["concert_id", "singer_id"],
      foreignKeys: [
        {
          name: "sic_c",
          columns: ["concert_id"],
          referencedSchema: "public",
          referencedTable: "concert",
          referencedColumns: ["concert_id"],
        },
        {
          name: "sic_s",
          columns: ["singer_id"],
          referencedSchema: "public",
          referencedTable: "singer",
          referencedColumns: ["singer_id"],
        },
      ],
    }),
    table("stadium", ["stadium_id", "location", "capacity"], { primaryKey: ["stadium_id"] }),
  ],
};

/** One mock model per step, answering with a fixed JSON object; records the prompts it saw. */
function mockSteps(outputs: Record<string, unknown>) {
  const prompts: Record<string, string[]> = {};
  const resolveModel = (step: string) => ({
    id: `mock:${step}`,
    scripted: false,
    model: mockTextModel(
      (call) => {
        prompts[step] = [...(prompts[step] ?? []), JSON.stringify(call.prompt)];
        if (!(step in outputs)) throw new Error(`unexpected step ${step}`);
        return JSON.stringify(outputs[step]);
      },
      { input: 10, output: 5 },
    ),
  });
  return { prompts, resolveModel };
}

function contextFor(
  question: string,
  resolveModel: ReturnType<typeof mockSteps>["resolveModel"],
  events: PipelineEvent[] = [],
) {
  return createStepContext({
    question,
    settings: loadSettings({}),
    resolveModel,
    onEvent: (event) => events.push(event),
  });
}

describe("CHESS schema selector", () => {
  it("runs keywords, values, filter_column, select_tables, select_columns and keeps join keys", async () => {
    const builder = new ValueIndexBuilder();
    builder.addColumn({ schema: "public", table: "singer", column: "country" }, ["France", "Germany", "Netherlands"]);
    builder.addColumn({ schema: "public", table: "stadium", column: "location" }, ["Paris", "Berlin"]);
    const { prompts, resolveModel } = mockSteps({
      "extract-keywords": { keywords: ["concerts", "singers", "France", "France"] },
      "filter-column": {
        columns: [
          { column: "public.singer.age", relevant: false },
          { column: "stadium.capacity", relevant: false },
        ],
      },
      "select-tables": {
        chain_of_thought_reasoning: "join",
        table_names: ["singer", "public.concert", "SINGER_IN_CONCERT", "nope"],
      },
      "select-columns": {
        tables: [
          { table: "singer", columns: ["country"] },
          { table: "concert", columns: ["concert.concert_name", "missing"] },
        ],
      },
    });
    const events: PipelineEvent[] = [];
    const selector = createChessSchemaSelector({ steps: schemaSelectionPresets.balanced, valueIndex: builder.build() });
    const selected = await selector.select({
      catalog,
      context: contextFor("Which concerts had singers from France?", resolveModel, events),
    });
    expect(renderSchema(selected.catalog)).toMatchInlineSnapshot(`
      "CREATE TABLE singer (
        singer_id text,
        country text, -- examples: 'France'
        PRIMARY KEY (singer_id)
      );

      CREATE TABLE concert (
        concert_id text,
        concert_name text,
        PRIMARY KEY (concert_id)
      );

      CREATE TABLE singer_in_concert (
        concert_id text,
        singer_id text,
        PRIMARY KEY (concert_id, singer_id),
        FOREIGN KEY (concert_id) REFERENCES concert (concert_id),
        FOREIGN KEY (singer_id) REFERENCES singer (singer_id)
      );"
    `);
    expect(selected.hint).toBe(
      "Values stored in the database that match the question: public.singer.country = 'France'.",
    );
    expect(events.find((event) => event.type === "keywords-end")).toEqual({
      type: "keywords-end",
      keywords: ["concerts", "singers", "France"],
      source: "model",
    });
    expect(events.find((event) => event.type === "values-end")).toEqual({
      type: "values-end",
      values: [{ keyword: "France", table: "public.singer", column: "country", value: "France" }],
    });
    expect(prompts["filter-column"]?.[0]).toContain('public.singer.country (text); examples: \\"France\\"');
    expect(prompts["select-tables"]?.[0]).not.toContain('\\"age\\"');
    expect(prompts["select-columns"]?.[0]).not.toContain("CREATE TABLE stadium");
  });

  it("batches filter_column and keeps columns the model did not mention", async () => {
    const { prompts, resolveModel } = mockSteps({
      "filter-column": { columns: [{ column: "public.singer.name", relevant: false }] },
    });
    const selector = createChessSchemaSelector({
      steps: { extractKeywords: false, filterColumn: true, selectTables: false, selectColumns: false },
      filterBatchSize: 5,
      maxFilterCalls: 6,
    });
    const selected = await selector.select({ catalog, context: contextFor("Singer ages?", resolveModel) });
    expect(prompts["filter-column"]).toHaveLength(3);
    expect(selected.catalog.tables[0]!.columns.map((column) => column.name)).toEqual(["singer_id", "country", "age"]);
  });

  it("sends filter_column one batch by default, however large the schema", async () => {
    const { prompts, resolveModel } = mockSteps({ "filter-column": { columns: [] } });
    const selector = createChessSchemaSelector({
      steps: { extractKeywords: false, filterColumn: true, selectTables: false, selectColumns: false },
      filterBatchSize: 5,
    });
    await selector.select({ catalog, context: contextFor("Singer ages?", resolveModel) });
    expect(prompts["filter-column"]).toHaveLength(1);
  });

  it("caps filter_column calls by growing the batches", async () => {
    const { prompts, resolveModel } = mockSteps({ "filter-column": { columns: [] } });
    const selector = createChessSchemaSelector({
      steps: { extractKeywords: false, filterColumn: true, selectTables: false, selectColumns: false },
      filterBatchSize: 2,
      maxFilterCalls: 2,
    });
    await selector.select({ catalog, context: contextFor("Singer ages?", resolveModel) });
    expect(prompts["filter-column"]).toHaveLength(2);
  });

  it("never returns an empty schema when the model picks nothing that exists", async () => {
    const { resolveModel } = mockSteps({
      "select-tables": { table_names: ["ghost"] },
      "select-columns": { tables: [] },
    });
    const selector = createChessSchemaSelector({
      steps: { ...schemaSelectionPresets.none, selectTables: true, selectColumns: true },
    });
    const selected = await selector.select({ catalog, context: contextFor("Anything?", resolveModel) });
    expect(selected.catalog.tables).toHaveLength(4);
  });

  it("keeps the wider schema when filter_column, select_tables or select_columns is unreadable or refused", async () => {
    const answers: Record<string, () => string> = {
      "filter-column": () => "I think every column matters.",
      "select-tables": () => {
        throw new APICallError({
          message: "Invalid schema for response_format 'response'",
          url: "https://api.openai.com/v1/responses",
          requestBodyValues: {},
          statusCode: 400,
          isRetryable: false,
        });
      },
      "select-columns": () => JSON.stringify({ chain_of_thought_reasoning: null, tables: "singer" }),
    };
    const steps: string[] = [];
    const context = createStepContext({
      question: "Singer ages?",
      settings: loadSettings({}),
      resolveModel: (step) => ({
        id: `mock:${step}`,
        scripted: false,
        model: mockTextModel(() => {
          steps.push(step);
          return answers[step]!();
        }),
      }),
    });
    const selector = createChessSchemaSelector({
      steps: { extractKeywords: false, filterColumn: true, selectTables: true, selectColumns: true },
    });
    const selected = await selector.select({ catalog, context });
    // filter_column and select_tables run at once (either may start first), select_columns after both.
    expect(steps.slice(0, 2).sort()).toEqual(["filter-column", "select-tables"]);
    expect(steps[2]).toBe("select-columns");
    expect(selected.catalog).toEqual(catalog);
    expect(
      context.calls.map((call) => [call.step, call.failure]).sort((left, right) => left[0]!.localeCompare(right[0]!)),
    ).toEqual([
      ["filter-column", "unreadable-output"],
      ["select-columns", "unreadable-output"],
      ["select-tables", "refused"],
    ]);
  });

  it("falls back to heuristic keywords, labelled, when a scripted fixture has no extract-keywords response", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-chess-"));
    const fixture = path.join(directory, "model.json");
    writeFileSync(fixture, JSON.stringify({ description: "Scripted: no keyword step.", responses: [] }));
    const builder = new ValueIndexBuilder();
    builder.addColumn({ schema: "public", table: "singer", column: "country" }, ["France", "Germany", "Netherlands"]);
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question: "Which singers come from Frnace?",
      settings: loadSettings({}),
      resolveModel: () => ({ id: `scripted:${fixture}`, scripted: true, model: createScriptedModel(fixture) }),
      onEvent: (event) => events.push(event),
    });
    const selector = createChessSchemaSelector({
      steps: { ...schemaSelectionPresets.none, extractKeywords: true },
      valueIndex: builder.build(),
    });
    const selected = await selector.select({ catalog, context });
    rmSync(directory, { recursive: true, force: true });
    const keywordsEvent = events.find((event) => event.type === "keywords-end");
    expect(keywordsEvent).toMatchObject({ source: "heuristic", keywords: expect.arrayContaining(["Frnace"]) });
    expect(keywordsEvent?.type === "keywords-end" && keywordsEvent.fallbackReason).toContain(
      'no response for step "extract-keywords"',
    );
    expect(events.find((event) => event.type === "values-end")).toEqual({
      type: "values-end",
      values: [{ keyword: "Frnace", table: "public.singer", column: "country", value: "France" }],
    });
    expect(selected.hint).toContain("public.singer.country = 'France'");
  });

  it("labels heuristic keywords when the extract-keywords step is switched off", async () => {
    const { prompts, resolveModel } = mockSteps({});
    const events: PipelineEvent[] = [];
    const selector = createChessSchemaSelector({ steps: schemaSelectionPresets.none });
    await selector.select({ catalog, context: contextFor("Singers from France?", resolveModel, events) });
    expect(events.find((event) => event.type === "keywords-end")).toEqual({
      type: "keywords-end",
      keywords: ["France", "singers"],
      source: "heuristic",
    });
    expect(prompts).toEqual({});
  });

  it("shows only values the asking role can see: hits and stored examples of the shown tables", async () => {
    const builder = new ValueIndexBuilder();
    builder.addColumn({ schema: "public", table: "singer", column: "country" }, ["France", "Francia", "Germany"]);
    const checked: ValueProbe[] = [];
    // Stands in for `createValueVisibility` on an RLS-limited session: it sees no row holding a HIDDEN value.
    const valueVisibility = async (probes: readonly ValueProbe[]) => {
      checked.push(...probes);
      return new Set(probes.filter((probe) => !/Francia|HIDDEN/.test(probe.value)).map(valueProbeKey));
    };
    const events: PipelineEvent[] = [];
    const { resolveModel } = mockSteps({});
    const selector = createChessSchemaSelector({
      steps: schemaSelectionPresets.none,
      valueIndex: builder.build(),
      valueVisibility,
      storedSampleValues: new Map([
        ['"public"."singer"."country"', ["Germany", "HIDDEN sample"]],
        ['"public"."stadium"."location"', ["Paris"]],
      ]),
      preselectAboveColumns: 0,
    });
    const selected = await selector.select({
      catalog,
      context: contextFor("Singers from Francia?", resolveModel, events),
    });
    // The closest value (Francia) is hidden, so the closest visible one of the column is used instead.
    expect(events.find((event) => event.type === "values-end")).toEqual({
      type: "values-end",
      values: [{ keyword: "Francia", table: "public.singer", column: "country", value: "France" }],
    });
    expect(selected.hint).toBe(
      "Values stored in the database that match the question: public.singer.country = 'France'.",
    );
    expect(renderSchema(selected.catalog)).toContain("country text, -- examples: 'France', 'Germany'");
    expect(renderSchema(selected.catalog)).not.toMatch(/HIDDEN|Francia/);
    // Stored examples are checked only for the tables shown (stadium was narrowed away).
    expect(checked.map((probe) => probe.value)).not.toContain("Paris");
    expect(checked.map((probe) => probe.value)).toContain("HIDDEN sample");
  });

  it("passes small catalogs through without a call", async () => {
    const { prompts, resolveModel } = mockSteps({});
    const selector = createChessSchemaSelector({ minimumColumns: 100 });
    const selected = await selector.select({ catalog, context: contextFor("Anything?", resolveModel) });
    expect(selected.catalog).toBe(catalog);
    expect(prompts).toEqual({});
  });

  it("narrows a large catalog to the tables of the learnt ranking's columns (rankColumns), readable ones only", async () => {
    const { resolveModel } = mockSteps({});
    const asked: string[] = [];
    const selector = createChessSchemaSelector({
      steps: schemaSelectionPresets.none,
      preselectAboveColumns: 5,
      rankColumns: (question) => {
        asked.push(question);
        return [
          { table: "public.stadium", column: "capacity" },
          { table: "secret.salaries", column: "amount" },
        ];
      },
    });
    const selected = await selector.select({ catalog, context: contextFor("Biggest venue?", resolveModel) });
    expect(asked).toEqual(["Biggest venue?"]);
    expect(selected.catalog.tables.map((entry) => entry.name)).toEqual(["stadium"]);
  });

  it("passes the value index's matches to the learnt ranking (value-aware fusion)", async () => {
    const { resolveModel } = mockSteps({ "extract-keywords": { keywords: ["Netherlands"] } });
    const builder = new ValueIndexBuilder();
    builder.addColumn({ schema: "public", table: "singer", column: "country" }, ["France", "Netherlands"]);
    const received: Array<{ column: string; value: string; editSimilarity?: number }[]> = [];
    const selector = createChessSchemaSelector({
      steps: schemaSelectionPresets.none,
      preselectAboveColumns: 5,
      valueIndex: builder.build(),
      rankColumns: (_question, values = []) => {
        received.push(values.map(({ column, value, editSimilarity }) => ({ column, value, editSimilarity })));
        return [];
      },
    });
    await selector.select({ catalog, context: contextFor("Singers from the Netherlands?", resolveModel) });
    expect(received).toEqual([[{ column: "country", value: "Netherlands", editSimilarity: 1 }]]);
  });
});
