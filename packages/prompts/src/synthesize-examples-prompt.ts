import { z } from "zod";
import {
  type PromptExample,
  postgresqlInstructions,
  renderExamplePairs,
  renderInstructions,
} from "./generation-prompt-sections";

/**
 * CHASE-SQL online synthetic example generation (§2.3, Algorithm 2, appendix A.13 / Figure 26), adapted to
 * PostgreSQL, with both of the algorithm's example sets asked for in one call: `featureExamples` examples over the
 * whole database that follow common SQL features (guideline R_f) and `schemaExamples` examples over the columns
 * selected for the question that show how this schema is used correctly (guideline R_t). The question itself is not
 * shown, as in Algorithm 2. Output: `synthesizedExamplesOutputSchema`.
 */
export interface SynthesizeExamplesPromptOptions {
  /** The whole database the asking role may read, rendered as DDL (possibly capped by the caller). */
  readonly wholeSchema: string;
  /**
   * The tables and columns selected for the question, rendered as DDL; absent when they are the whole database (a
   * small one, or nothing was selected away), so the schema is not shown twice.
   */
  readonly selectedSchema?: string;
  /** How many examples to write over the whole database (n_f). */
  readonly featureExamples: number;
  /** How many examples to write over the selected columns (n_t). */
  readonly schemaExamples: number;
  /** Verified question–SQL pairs of this database, shown as the kind of questions asked here. Default: none. */
  readonly examples?: readonly PromptExample[];
}

export const synthesizedExamplesOutputSchema = z.object({
  examples: z
    .array(
      z.object({
        question: z.string().describe("A question a user of this database could ask, with a hint when useful."),
        sql: z.string().describe("The PostgreSQL query that answers it, in a single string."),
      }),
    )
    .describe("The examples over the whole database first, then the examples over the selected columns."),
});

export type SynthesizedExamplesOutput = z.infer<typeof synthesizedExamplesOutputSchema>;

export const synthesizeExamplesSystemPrompt =
  "You are a PostgreSQL expert who writes realistic example questions about a database and the correct queries that answer them. Answer only with the requested JSON object.";

/** Guideline R_f: the SQL features the whole-database examples cover (BIRD's feature mix, extended for PostgreSQL). */
export const sqlFeatureGuidelines: readonly string[] = [
  "some simple queries on one table without JOIN, with equality and non-equality predicates (=, <>, <, >, BETWEEN, IN, LIKE)",
  "some queries with aggregates (count, sum, avg, min, max), GROUP BY and HAVING",
  "some queries with a JOIN of two tables along a foreign key",
  "some complex queries with nested JOINs over three or more tables",
  "some top-k queries with ORDER BY and LIMIT",
  "some queries with subqueries (IN, EXISTS, a scalar subquery) or WITH",
  "a few queries with CASE expressions or conditional aggregates (count(*) FILTER (WHERE …))",
  "a few queries with set operations (UNION, INTERSECT, EXCEPT)",
  "a few queries with window functions (rank() OVER (…), running totals)",
  "a few queries on dates (date_trunc, extract, intervals) and ratios (cast to numeric before dividing)",
];

/** The format demonstration of Figure 26 (BIRD's world development indicators database), in PostgreSQL. */
const formatDemonstration = `{"question": "What's the description of the series code SM.POP.TOTL for Aruba? (Hint: Aruba is the name of the country where short_name = 'Aruba')", "sql": "SELECT t2.description FROM country AS t1 INNER JOIN country_notes AS t2 ON t1.country_code = t2.country_code WHERE t1.short_name = 'Aruba' AND t2.series_code = 'SM.POP.TOTL'"}`;

export function synthesizeExamplesPrompt(options: SynthesizeExamplesPromptOptions): string {
  const total = options.featureExamples + options.schemaExamples;
  const verified =
    options.examples && options.examples.length > 0
      ? `Questions already answered on this database (they show what its users ask; do not repeat them):
${renderExamplePairs(options.examples)}

`
      : "";
  return `Your job is to create ${total} examples for a PostgreSQL database, where each example consists of a question and a PostgreSQL query that fetches the data for it. The examples will be shown as demonstrations to someone who writes queries for this database, so every query must be correct and runnable on the schema given, and must answer its question exactly.

Each example looks like this (question and SQL pair):
${formatDemonstration}

Generate examples that examine and showcase different aspects and relationships of the table schemas below. Understand the database tables and their relationships (primary and foreign keys). Understand the columns, their types and meanings, and their example values to construct interesting examples; spell values exactly as the example values show them.

Part 1: ${options.featureExamples} examples over the whole database, with a mixture of SQL features:
${renderInstructions(sqlFeatureGuidelines)}
Keep the mixture balanced: many questions need only one table or one join, so do not make every example complex.

###Table creation statements of the whole database###
${options.wholeSchema.trim()}

${
  options.selectedSchema === undefined
    ? `Part 2: ${options.schemaExamples} examples over the same tables and columns, to highlight their correct use: which table each column belongs to, how the tables join along their keys, how values are spelled and how the columns are best aggregated, filtered and returned.`
    : `Part 2: ${options.schemaExamples} examples that use the following tables and columns, to highlight their correct use: which table each column belongs to, how the tables join along their keys, how values are spelled and how the columns are best aggregated, filtered and returned.

###Table creation statements of the selected tables and columns###
${options.selectedSchema.trim()}`
}

${verified}Rules for every query:
${renderInstructions(postgresqlInstructions.slice(0, 7))}

Respond with a JSON object structured as follows, with the ${options.featureExamples} examples of part 1 first and then the ${options.schemaExamples} examples of part 2 (${total} in total):
{
  "examples": [
    {"question": "…", "sql": "…"}
  ]
}`;
}
