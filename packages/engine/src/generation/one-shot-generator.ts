import { generateCandidatePrompt, generateCandidateSystemPrompt, sqlCandidateOutputSchema } from "@nlq/prompts";
import { UnanswerableQuestionError } from "../errors";
import type { CandidateGenerator } from "./candidate-generator";

/**
 * CHESS one-shot candidate with chain of thought (appendix C, Figure 11), PostgreSQL dialect.
 * An empty `sql` from the model means unanswerable → `UnanswerableQuestionError` carrying the model's reasoning.
 */
export const oneShotGenerator: CandidateGenerator = {
  name: "one-shot",
  async generate({ schema, context, previousTurns, sample, temperature }) {
    const output = await context.runModelStep({
      step: "generate-candidate",
      sample,
      temperature,
      schema: sqlCandidateOutputSchema,
      system: generateCandidateSystemPrompt,
      prompt: generateCandidatePrompt({ schema, question: context.question, hint: context.hint, previousTurns }),
    });
    if (output.sql.trim() === "") {
      const reasoning = output.reasoning.trim() || "the model found no way to answer it from this database";
      throw new UnanswerableQuestionError(`cannot answer from this database: ${reasoning}`, {
        question: context.question,
      });
    }
    return { sql: output.sql.trim(), reasoning: output.reasoning };
  },
};
