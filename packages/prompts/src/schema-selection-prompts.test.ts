import { describe, expect, it } from "vitest";
import {
  filterColumnOutputSchema,
  filterColumnPrompt,
  selectColumnsOutputSchema,
  selectColumnsPrompt,
  selectTablesOutputSchema,
  selectTablesPrompt,
} from "./schema-selection-prompts";

const schema = `CREATE TABLE singer (
  singer_id integer NOT NULL,
  country text -- examples: 'France'
);`;

describe("schema selection prompts", () => {
  it("renders filter_column for a batch of columns", () => {
    expect(
      filterColumnPrompt({
        question: "Singers from France?",
        columns: [
          { id: "singer.country", dataType: "text", description: "home country", examples: ["France"] },
          { id: "singer.singer_id", dataType: "integer" },
        ],
      }),
    ).toMatchInlineSnapshot(`
      "You evaluate whether database columns are relevant for writing a SQL query that answers a question, informed by the hint.

      Label each column "relevant" (true) if it could help formulate the query — because the question or hint asks for, filters on, groups by, orders by or joins through the information it holds — and "irrelevant" (false) otherwise.

      Guidelines:
      1. Each column alone is not enough to answer the whole question: judge only whether this column's information is referred to by the question or hint.
      2. Read each column's name, description and examples; if the question or hint refers to the same information (or to one of its example values), it is relevant.
      3. When unsure, label it relevant: a later step removes what is not needed.

      Question: Singers from France?
      Hint: none

      Columns:
      - singer.country (text); description: home country; examples: "France"
      - singer.singer_id (integer)

      Answer with {"columns": [{"column": "<table.column>", "relevant": true|false}, ...]} covering every column above."
    `);
  });

  it("renders select_tables", () => {
    expect(
      selectTablesPrompt({ question: "Singers from France?", hint: "France is a country", schema }),
    ).toMatchInlineSnapshot(`
      "Analyze the database schema, understand the question and use the hint to identify which tables are needed to write a SQL query that answers the question.

      Database schema:

      CREATE TABLE singer (
        singer_id integer NOT NULL,
        country text -- examples: 'France'
      );

      The schema lists tables, columns, primary keys, foreign keys and descriptions. For key phrases of the question, the most similar values stored in a column are listed as "-- examples" beside it: a strong sign of which tables the query uses.

      Question: Singers from France?
      Hint: France is a country

      Task: choose all and only the tables needed to write the SQL query, including tables needed only to join others. Explain the choice briefly.

      Answer with {"chain_of_thought_reasoning": "...", "table_names": ["schema.table", ...]}."
    `);
  });

  it("renders select_columns", () => {
    expect(selectColumnsPrompt({ question: "Singers from France?", schema })).toMatchInlineSnapshot(`
      "Examine the database schema, understand the question and use the hint to pinpoint the columns that are essential for writing a SQL query that answers the question.

      Database schema:

      CREATE TABLE singer (
        singer_id integer NOT NULL,
        country text -- examples: 'France'
      );

      For key phrases of the question, the most similar values stored in a column are listed as "-- examples" beside it: a strong sign of which columns the query filters on.

      Question: Singers from France?
      Hint: none

      Task: choose all and only the columns the query needs (selected, filtered, grouped, ordered or joined on), explaining each briefly. Tip: if you choose a column to filter on a value, make sure that column lists the value as an example.

      Answer with {"chain_of_thought_reasoning": "...", "tables": [{"table": "schema.table", "columns": ["column", ...]}, ...]}."
    `);
  });

  it("validates outputs", () => {
    expect(filterColumnOutputSchema.safeParse({ columns: [{ column: "a.b", relevant: true }] }).success).toBe(true);
    expect(filterColumnOutputSchema.safeParse({ columns: [{ column: "a.b" }] }).success).toBe(false);
    expect(
      selectTablesOutputSchema.safeParse({ chain_of_thought_reasoning: null, table_names: ["public.singer"] }).success,
    ).toBe(true);
    // Every property is required (OpenAI strict mode); the engine fills a missing nullable one when it recovers text.
    expect(selectTablesOutputSchema.safeParse({ table_names: ["public.singer"] }).success).toBe(false);
    expect(
      selectColumnsOutputSchema.safeParse({
        chain_of_thought_reasoning: "country filters",
        tables: [{ table: "singer", columns: ["country"] }],
      }).success,
    ).toBe(true);
    expect(selectColumnsOutputSchema.safeParse({ singer: ["country"] }).success).toBe(false);
  });
});
