import { queryPlanPrompt, queryPlanSystemPrompt } from "@nlq/prompts";
import type { CandidateGenerator } from "./candidate-generator";
import { writeSql } from "./write-sql";

/**
 * CHASE-SQL query-plan chain of thought (§2.3, appendix A.9) in one call: the model explains how the engine would
 * execute the query (tables, operations, output) and then writes it; `extractSql` recovers the final query.
 */
export const queryPlanGenerator: CandidateGenerator = {
  name: "query-plan",
  generate({ schema, context, previousTurns, examples, sample, temperature }) {
    return writeSql({
      context,
      step: "generate-query-plan",
      sample,
      temperature,
      system: queryPlanSystemPrompt,
      prompt: queryPlanPrompt({
        schema,
        question: context.question,
        hint: context.hint,
        previousTurns,
        examples,
        questionContext: context.questionContext,
      }),
    });
  },
};
