import { z } from "zod";
import { type PromptQuestionContext, renderQuestionContext } from "./question-context-section";

/**
 * The reading step's one model call (step `find-readings`): phrases of the question that two or more columns or
 * tables of the shown schema fit about equally, which the schema's names alone cannot relate (AmbiQT's column
 * synonyms: `mass` and `body_weight` for "weight"). nlq's, after AmbiQT (Bhaskar et al. 2023) and AmbiSQL's detection
 * step; CHESS and CHASE-SQL have none. The schema text is rendered by the caller (DDL-like, with descriptions and
 * `-- examples` values).
 */
export interface FindReadingsPromptOptions {
  readonly question: string;
  /** Evidence, retrieved values, instructions; `"none"` when empty. */
  readonly hint?: string;
  /** The schema the SQL will be written against, as DDL-like text. */
  readonly schema: string;
  /**
   * The definitions retrieved for the question and the session's date, as the generators see them: a term the
   * database's users defined is settled, not in doubt. Default: none.
   */
  readonly questionContext?: PromptQuestionContext;
}

export const findReadingsSystemPrompt =
  "You are an expert and very careful data analyst who checks questions for ambiguity before SQL is written. Answer only with the requested JSON object.";

export function findReadingsPrompt(options: FindReadingsPromptOptions): string {
  return `Before SQL is written for the question below, check whether a phrase of it can name more than one thing in this database.

Report a phrase only when all three hold:
1. Two or more columns of the schema (or two or more tables) fit the phrase about equally well — for example two columns whose names are both synonyms of the phrase, or two tables that hold the same kind of rows.
2. Nothing settles which one is meant: not the question's other words, not the hint, not the definitions given below, not the columns' descriptions or example values, not the table the question is about.
3. Taking one instead of the other could change the answer.

Do not report:
- a phrase that one column or table fits clearly better than the others (its name is the phrase, or its description or values say so);
- columns that are different parts or sides of one thing (first and last name, start and end date, home and away team, minimum and maximum, two different people's names);
- a key or id column beside the name or value it stands for;
- choices about how to write the SQL (joins, DISTINCT, rounding, ordering, ties, date arithmetic) rather than what a phrase names;
- a phrase only because it is vague or general.

Most questions have no such phrase; then answer {"phrases": []}.

Database schema:

${options.schema}

${renderQuestionContext(options.questionContext)}Question: ${options.question.trim()}
Hint: ${options.hint?.trim() || "none"}

Answer with {"phrases": [{"phrase": "<the words of the question>", "reason": "<why each fits and nothing settles it>", "meanings": ["<table.column, or table>", ...]}]}: the phrase exactly as the question says it, and every column (written table.column) or table it may name, the likeliest first.`;
}

export const findReadingsOutputSchema = z.object({
  phrases: z.array(
    z.object({
      phrase: z.string(),
      reason: z.string(),
      meanings: z.array(z.string()),
    }),
  ),
});
export type FindReadingsOutput = z.infer<typeof findReadingsOutputSchema>;
