import {
  evaluateUnitTestOutputSchema,
  evaluateUnitTestPrompt,
  generateUnitTestsOutputSchema,
  generateUnitTestsPrompt,
  unitTestSystemPrompt,
} from "@nlq/prompts";
import { ModelOutputError } from "../errors/model-errors";
import { isDegradableStepFailure } from "../llm/step-failure";
import { bestCluster } from "./best-cluster";
import type { CandidateSelector, SelectCandidateOptions, SelectionOutcome } from "./candidate-selector";
import { resultPreview } from "./result-preview";
import { largestCluster } from "./self-consistency-selector";

export interface UnitTestSelectorOptions {
  /** Unit tests to write (k). Default: `settings.unitTestCount` (`NLQ_UNIT_TESTS`). */
  readonly count?: number;
  /** Result rows shown per candidate. Default `defaultPreviewRows`. */
  readonly previewRows?: number;
}

/**
 * CHESS's unit tester (UT): one `generate-unit-tests` call writes k natural-language unit tests from the cluster
 * representatives and their results (the prompt asks for tests that tell the clusters apart), then one
 * `evaluate-unit-tests` call per test judges every representative against that test — CHESS's better setting (one
 * test, all candidates: the model compares them; §4.2.1). Calls: 1 + k (k = the tests the model returned, at most
 * `count`); one cluster is chosen without a call. Evaluation calls run one after another.
 *
 * Score: tests passed. Winner: most tests passed; ties go to the larger cluster, then the earlier first member
 * (`bestCluster`). Confidence: the winner's share of the tests it passed.
 * A test whose evaluation is unreadable (`ModelOutputError`, or a verdict list whose length is not the number of
 * candidates), refused or cut by the deadline (`isDegradableStepFailure`) is left out of the scores and the
 * confidence, and named in the basis; when every evaluation failed the last error is thrown.
 * With fewer calls left in the question's budget than 1 + k, fewer tests are written (k = calls left − 1); with fewer
 * than 2 calls left the largest cluster is chosen as self-consistency would, with its share of the candidates.
 */
export function createUnitTestSelector(options: UnitTestSelectorOptions = {}): CandidateSelector {
  return {
    name: "unit-tests",
    async select(selection: SelectCandidateOptions): Promise<SelectionOutcome> {
      const { clusters, context } = selection;
      if (clusters.length === 1) {
        return { cluster: clusters[0]!, confidence: 1, basis: "every candidate returned the same result" };
      }
      const count = Math.min(options.count ?? context.settings.unitTestCount, context.budget.remainingCalls() - 1);
      if (count < 1) {
        const cluster = largestCluster(clusters);
        return {
          cluster,
          confidence: cluster.members.length / selection.candidates.length,
          basis: `no model calls left for unit tests; ${cluster.members.length} of ${selection.candidates.length} candidates returned this result (the largest cluster)`,
        };
      }
      const candidates = clusters.map((cluster) => ({
        sql: cluster.representative.sql,
        result: resultPreview(cluster.representative.result, options.previewRows),
      }));
      const shared = { schema: selection.schema, question: context.question, hint: context.hint, candidates };
      context.throwIfCancelled();
      const generated = await context.runModelStep({
        step: "generate-unit-tests",
        schema: generateUnitTestsOutputSchema,
        system: unitTestSystemPrompt,
        prompt: generateUnitTestsPrompt({ ...shared, count }),
      });
      const tests = generated.unitTests
        .map((test) => test.trim())
        .filter((test) => test !== "")
        .slice(0, count);
      const passed = clusters.map(() => 0);
      if (tests.length === 0) {
        throw new ModelOutputError("the unit test generator wrote no unit tests", {
          step: "generate-unit-tests",
          output: JSON.stringify(generated),
        });
      }
      const unreadable: unknown[] = [];
      for (const [sample, unitTest] of tests.entries()) {
        context.throwIfCancelled();
        try {
          const evaluated = await context.runModelStep({
            step: "evaluate-unit-tests",
            schema: evaluateUnitTestOutputSchema,
            system: unitTestSystemPrompt,
            prompt: evaluateUnitTestPrompt({ ...shared, unitTest }),
            sample,
          });
          if (evaluated.verdicts.length !== clusters.length) {
            throw new ModelOutputError(
              `unit test evaluation gave ${evaluated.verdicts.length} verdicts for ${clusters.length} candidates`,
              { step: "evaluate-unit-tests", output: JSON.stringify(evaluated) },
            );
          }
          evaluated.verdicts.forEach((verdict, position) => {
            if (verdict === "Passed") passed[position]! += 1;
          });
        } catch (error) {
          // One unreadable or refused evaluation costs that test, not the question.
          if (!isDegradableStepFailure(error, context)) throw error;
          unreadable.push(error);
        }
      }
      if (unreadable.length === tests.length) throw unreadable.at(-1)!;
      const evaluatedTests = tests.length - unreadable.length;
      const { cluster, position } = bestCluster(clusters, (_, index) => passed[index]!);
      return {
        cluster,
        confidence: passed[position]! / evaluatedTests,
        basis: `passed ${passed[position]} of ${evaluatedTests} unit tests written to tell ${clusters.length} result clusters apart${unreadable.length > 0 ? ` (${unreadable.length} more tests left out: their evaluation failed)` : ""}`,
      };
    },
  };
}
