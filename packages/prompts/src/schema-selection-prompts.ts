import { z } from "zod";

/**
 * CHESS schema selector prompts (paper Appendix C, Figs. 8–10): filter_column (batched here: one call labels many
 * columns), select_tables and select_columns. The schema text is rendered by the caller (DDL-like, with descriptions
 * and `-- examples` values retrieved for the question's keywords).
 */
export interface SchemaSelectionPromptOptions {
  readonly question: string;
  /** Evidence or hint; `"none"` when empty. */
  readonly hint?: string;
}

export const schemaSelectionSystemPrompt =
  "You are an expert and very careful data analyst. Answer only with the requested JSON object.";

/** One column shown to filter_column. */
export interface FilterColumnItem {
  /** `table.column` as the model must echo it back. */
  readonly id: string;
  readonly dataType: string;
  /** Description (comment or catalog file), if any. */
  readonly description?: string;
  /** Example values (retrieved for the question first). */
  readonly examples?: readonly string[];
}

export interface FilterColumnPromptOptions extends SchemaSelectionPromptOptions {
  readonly columns: readonly FilterColumnItem[];
}

function renderFilterItem(item: FilterColumnItem): string {
  const parts = [`- ${item.id} (${item.dataType})`];
  if (item.description) parts.push(`description: ${item.description.replace(/\s+/g, " ").trim()}`);
  if (item.examples && item.examples.length > 0)
    parts.push(`examples: ${item.examples.map((value) => JSON.stringify(value)).join(", ")}`);
  return parts.join("; ");
}

export function filterColumnPrompt(options: FilterColumnPromptOptions): string {
  return `You evaluate whether database columns are relevant for writing a SQL query that answers a question, informed by the hint.

Label each column "relevant" (true) if it could help formulate the query — because the question or hint asks for, filters on, groups by, orders by or joins through the information it holds — and "irrelevant" (false) otherwise.

Guidelines:
1. Each column alone is not enough to answer the whole question: judge only whether this column's information is referred to by the question or hint.
2. Read each column's name, description and examples; if the question or hint refers to the same information (or to one of its example values), it is relevant.
3. When unsure, label it relevant: a later step removes what is not needed.

Question: ${options.question.trim()}
Hint: ${options.hint?.trim() || "none"}

Columns:
${options.columns.map(renderFilterItem).join("\n")}

Answer with {"columns": [{"column": "<table.column>", "relevant": true|false}, ...]} covering every column above.`;
}

export const filterColumnOutputSchema = z.object({
  columns: z.array(z.object({ column: z.string(), relevant: z.boolean() })),
});
export type FilterColumnOutput = z.infer<typeof filterColumnOutputSchema>;

export interface SchemaPromptOptions extends SchemaSelectionPromptOptions {
  /** The (filtered) schema as DDL-like text. */
  readonly schema: string;
}

export function selectTablesPrompt(options: SchemaPromptOptions): string {
  return `Analyze the database schema, understand the question and use the hint to identify which tables are needed to write a SQL query that answers the question.

Database schema:

${options.schema}

The schema lists tables, columns, primary keys, foreign keys and descriptions. For key phrases of the question, the most similar values stored in a column are listed as "-- examples" beside it: a strong sign of which tables the query uses.

Question: ${options.question.trim()}
Hint: ${options.hint?.trim() || "none"}

Task: choose all and only the tables needed to write the SQL query, including tables needed only to join others. Explain the choice briefly.

Answer with {"chain_of_thought_reasoning": "...", "table_names": ["schema.table", ...]}.`;
}

/** Every property is required (the reasoning may be null), as OpenAI's strict structured outputs demand. */
export const selectTablesOutputSchema = z.object({
  chain_of_thought_reasoning: z.string().nullable(),
  table_names: z.array(z.string()),
});
export type SelectTablesOutput = z.infer<typeof selectTablesOutputSchema>;

export function selectColumnsPrompt(options: SchemaPromptOptions): string {
  return `Examine the database schema, understand the question and use the hint to pinpoint the columns that are essential for writing a SQL query that answers the question.

Database schema:

${options.schema}

For key phrases of the question, the most similar values stored in a column are listed as "-- examples" beside it: a strong sign of which columns the query filters on.

Question: ${options.question.trim()}
Hint: ${options.hint?.trim() || "none"}

Task: choose all and only the columns the query needs (selected, filtered, grouped, ordered or joined on), explaining each briefly. Tip: if you choose a column to filter on a value, make sure that column lists the value as an example.

Answer with {"chain_of_thought_reasoning": "...", "tables": [{"table": "schema.table", "columns": ["column", ...]}, ...]}.`;
}

/** Every property is required (the reasoning may be null), as OpenAI's strict structured outputs demand. */
export const selectColumnsOutputSchema = z.object({
  chain_of_thought_reasoning: z.string().nullable(),
  tables: z.array(z.object({ table: z.string(), columns: z.array(z.string()) })),
});
export type SelectColumnsOutput = z.infer<typeof selectColumnsOutputSchema>;
