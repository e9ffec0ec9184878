import { divideAndConquerPrompt, divideAndConquerSystemPrompt } from "@nlq/prompts";
import type { CandidateGenerator } from "./candidate-generator";
import { writeSql } from "./write-sql";

/**
 * CHASE-SQL divide-and-conquer chain of thought (§2.3, Algorithm 1, appendix A.8) in one call: sub-questions with
 * pseudo SQL, assembly, simplification; the final query is recovered from the answer by `extractSql`.
 */
export const divideAndConquerGenerator: CandidateGenerator = {
  name: "divide-and-conquer",
  generate({ schema, context, previousTurns, examples, sample, temperature }) {
    return writeSql({
      context,
      step: "generate-divide-and-conquer",
      sample,
      temperature,
      system: divideAndConquerSystemPrompt,
      prompt: divideAndConquerPrompt({
        schema,
        question: context.question,
        hint: context.hint,
        questionContext: context.questionContext,
        previousTurns,
        examples,
      }),
    });
  },
};
