import { generateCandidatePrompt, generateCandidateSystemPrompt } from "@nlq/prompts";
import type { CandidateGenerator } from "./candidate-generator";
import { writeSql } from "./write-sql";

/**
 * CHESS one-shot candidate with chain of thought (appendix C, Figure 11), PostgreSQL dialect, with the verified
 * examples as demonstrations. An empty `sql` from the model means unanswerable → `UnanswerableQuestionError` carrying
 * the model's reasoning.
 */
export const oneShotGenerator: CandidateGenerator = {
  name: "one-shot",
  generate({ schema, context, previousTurns, examples, sample, temperature }) {
    return writeSql({
      context,
      step: "generate-candidate",
      sample,
      temperature,
      system: generateCandidateSystemPrompt,
      prompt: generateCandidatePrompt({
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
