import { z } from "zod";

/**
 * Output of the SQL-writing steps (`generate-candidate`, `fix-candidate`): the model's chain of thought and one
 * PostgreSQL query. An empty `sql` means the model judged the question unanswerable from the schema.
 */
export const sqlCandidateOutputSchema = z.object({
  reasoning: z.string().describe("Your step-by-step reasoning on how you arrived at the query."),
  sql: z.string().describe("One PostgreSQL SELECT query in a single string, or an empty string if unanswerable."),
});

export type SqlCandidateOutput = z.infer<typeof sqlCandidateOutputSchema>;
