import type { Answer, CandidateRecord, QueryLogEntry } from "../contract/answer";
import { CancelledError } from "../errors/cancelled-error";
import { NlqError } from "../errors/nlq-error";
import { buildInterpretations } from "../interpretations/build-interpretations";
import { createStepContext } from "../llm/step-context";
import { renderSchema } from "../schema/render-schema";
import { summarizeAnswer } from "../summary/summarize-answer";
import { type QuestionTrace, startQuestionTrace } from "../telemetry/question-trace";
import type { AnswerQuestionOptions } from "./answer-question-options";
import { checkQuestionLength } from "./question-length";
import { selectAnswer } from "./select-answer";
import { writeQuestionCandidates } from "./write-question-candidates";

function shorten(text: string, length = 600): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

/**
 * Answers one question on the asking user's session as the preset in `settings` says (`settings.preset`): catalog →
 * optional schema selection (retrieval and CHESS SS, from the caller) → generation (every generator × samples,
 * `generate-candidates.ts`) → fixing (β = `maxFixAttempts`), these in `writeQuestionCandidates` → selection (execution clusters, then the configured
 * selector, `select-answer.ts`) → the plain-language sentence when the preset asks for it (`summarize-answer.ts`; its
 * failure never fails the answer). Every statement runs read-only on `options.session` and the
 * session is left as it was. Emits progress events in order, records the trace to `options.queryLog` (success and
 * failure), and throws typed `NlqError`s (`CancelledError` when `abortSignal` fires). A question longer than
 * `settings.maxQuestionLength` fails with `QuestionTooLongError` before any work, and is not logged.
 *
 * Traced with OpenTelemetry when the process registered a tracer provider (`startQuestionTrace`): a root span
 * `nlq.answer_question`, one span per stage, and the AI SDK's `gen_ai` spans of every model call under it.
 */
export async function answerQuestion(options: AnswerQuestionOptions): Promise<Answer> {
  checkQuestionLength(options.question, options.settings.maxQuestionLength);
  const questionTrace = startQuestionTrace({
    question: options.question,
    origin: options.origin ?? "cli",
    preset: options.settings.preset.name,
    recordContent: options.settings.traceContent,
  });
  try {
    const answer = await questionTrace.run(() => answerTracedQuestion(options, questionTrace));
    questionTrace.succeed(answer);
    return answer;
  } catch (error) {
    questionTrace.fail(error);
    throw error;
  }
}

/** The question's work, inside its trace (`startQuestionTrace`: a root span and one span per stage, when traced). */
async function answerTracedQuestion(options: AnswerQuestionOptions, questionTrace: QuestionTrace): Promise<Answer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const candidates: CandidateRecord[] = [];
  const context = createStepContext({
    question: options.question,
    hint: options.hint,
    settings: options.settings,
    abortSignal: options.abortSignal,
    onEvent: (event) => {
      questionTrace.onEvent(event);
      options.onEvent?.(event);
    },
    resolveModel: options.resolveModel,
    cache: options.llmCache,
    telemetry: questionTrace.telemetry,
  });
  let model: { id: string; scripted: boolean } | undefined;
  const record = async (
    entry: Omit<
      QueryLogEntry,
      "question" | "candidates" | "calls" | "elapsedMilliseconds" | "origin" | "model" | "scripted"
    >,
  ) => {
    if (!options.queryLog) return;
    try {
      await options.queryLog.record({
        question: options.question,
        candidates,
        calls: context.calls,
        elapsedMilliseconds: elapsed(),
        origin: options.origin ?? "cli",
        model: model?.id ?? null,
        scripted: model?.scripted ?? false,
        ...entry,
      });
    } catch {
      // The query log must never turn an answer into an error.
    }
  };

  try {
    context.emit({ type: "pipeline-start", question: options.question });
    model = context.modelForStep("generate-candidate");
    const {
      selected,
      context: generationContext,
      generation,
      readings: readingPlan,
      knowledgeUsed,
    } = await writeQuestionCandidates({
      context,
      session: options.session,
      transactionStatus: options.transactionStatus,
      catalog: options.catalog,
      schemaSelector: options.schemaSelector,
      previousTurns: options.previousTurns,
      verifiedExamples: options.verifiedExamples,
      knowledge: options.knowledge,
    });
    candidates.push(...generation.records);
    if (generation.executed.length === 0) throw generation.firstError;
    const selection = await selectAnswer({
      written: generation.records.length,
      executed: generation.executed,
      schema: renderSchema(selected),
      catalog: selected,
      context: generationContext,
    });
    // Each candidate that ran learns its cluster (records and candidates share the candidate order).
    for (const [index, cluster] of selection.clusterOf) candidates[index] = { ...candidates[index]!, cluster };
    const chosen = selection.chosen;
    const rows = chosen.result.result.rows.length;
    const questionReadings = readingPlan.readings.map(({ tables: _tables, ...reading }) => reading);
    const readings = buildInterpretations({
      clusters: selection.clusters,
      chosenCluster: selection.summary.chosenCluster,
      written: generation.records.length,
      askWhenSupportBelow: options.settings.askWhenSupportBelow,
      readings: questionReadings,
    });
    // One figure (selectAnswer): with candidates that returned different rows, at most the chosen result's share.
    const { confidence, summary: selectionSummary } = selection;
    const summary = await summarizeAnswer({ sql: chosen.sql, result: chosen.result, context });
    const answer: Answer = {
      question: options.question,
      sql: chosen.sql,
      result: chosen.result.result,
      truncated: chosen.result.truncated,
      ...(chosen.result.truncatedBy === undefined ? {} : { truncatedBy: chosen.result.truncatedBy }),
      ...(confidence === undefined ? {} : { confidence }),
      selection: selectionSummary,
      ...(readings.interpretations.length > 0 ? { interpretations: readings.interpretations } : {}),
      needsChoice: readings.needsChoice,
      choiceBasis: readings.choiceBasis,
      ...(questionReadings.length > 0 ? { readings: questionReadings } : {}),
      ...(readingPlan.followed.length > 0 ? { followedConfirmations: readingPlan.followed } : {}),
      model,
      explanation: shorten(generation.reasoning.get(chosen.index) ?? ""),
      ...(summary === undefined ? {} : { summary }),
      ...(knowledgeUsed.length > 0 ? { knowledgeUsed } : {}),
      candidates,
      calls: [...context.calls],
      elapsedMilliseconds: elapsed(),
    };
    context.emit({ type: "pipeline-end", sql: answer.sql, rows, elapsedMilliseconds: answer.elapsedMilliseconds });
    await record({ sql: answer.sql, ok: true, confidence: confidence ?? null, rows });
    return answer;
  } catch (caught) {
    const error =
      options.abortSignal?.aborted && !CancelledError.isInstance(caught)
        ? new CancelledError(undefined, { cause: caught })
        : caught;
    const code = NlqError.isInstance(error) ? error.code : "XX000";
    const message = error instanceof Error ? error.message : String(error);
    await record({
      sql: candidates.at(-1)?.sql ?? null,
      ok: false,
      error: { code, message },
      confidence: null,
      rows: null,
    });
    throw error;
  }
}
