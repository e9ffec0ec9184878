import { type Catalog, countColumns } from "../catalog/catalog-types";
import { introspectCatalog } from "../catalog/introspect-catalog";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { CancelledError, NlqError, UnanswerableQuestionError } from "../errors";
import { createStepContext } from "../llm/step-context";
import { renderSchema } from "../schema/render-schema";
import { fetchSampleValues } from "../schema/sample-values";
import { loadFunctionPolicy } from "../sql/load-function-policy";
import { summarizeAnswer } from "../summary/summarize-answer";
import type { Answer, AnswerQuestionOptions, CandidateRecord, QueryLogEntry } from "./answer";
import { generateCandidates } from "./generate-candidates";
import { checkQuestionLength } from "./question-length";
import { selectAnswer } from "./select-answer";

function shorten(text: string, length = 600): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

function joinHints(...hints: Array<string | undefined>): string | undefined {
  const present = hints.map((hint) => hint?.trim()).filter((hint): hint is string => Boolean(hint));
  return present.length > 0 ? present.join("\n") : undefined;
}

/**
 * Answers one question on the asking user's session as the preset in `settings` says (`settings.preset`): catalog →
 * optional schema selection (retrieval and CHESS SS, from the caller) → generation (every generator × samples,
 * `generate-candidates.ts`) → fixing (β = `maxFixAttempts`) → selection (execution clusters, then the configured
 * selector, `select-answer.ts`) → the plain-language sentence when the preset asks for it (`summarize-answer.ts`; its
 * failure never fails the answer). Every statement runs read-only on `options.session` and the
 * session is left as it was. Emits progress events in order, records the trace to `options.queryLog` (success and
 * failure), and throws typed `NlqError`s (`CancelledError` when `abortSignal` fires). A question longer than
 * `settings.maxQuestionLength` fails with `QuestionTooLongError` before any work, and is not logged.
 */
export async function answerQuestion(options: AnswerQuestionOptions): Promise<Answer> {
  checkQuestionLength(options.question, options.settings.maxQuestionLength);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const candidates: CandidateRecord[] = [];
  const context = createStepContext({
    question: options.question,
    hint: options.hint,
    settings: options.settings,
    abortSignal: options.abortSignal,
    onEvent: options.onEvent,
    resolveModel: options.resolveModel,
    cache: options.llmCache,
  });
  const scope = {
    session: options.session,
    transactionStatus: options.transactionStatus ?? "idle",
    statementTimeoutMilliseconds: options.settings.statementTimeoutMilliseconds,
    abortSignal: options.abortSignal,
  };
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
    context.throwIfCancelled();
    context.emit({ type: "catalog-start" });
    // One read-only scope loads what the question needs from the database: the function policy (always, under the
    // asking role and its search path) and the catalog (unless the index supplied it).
    const { policy, catalog } = await runReadOnly(scope, async (query) => ({
      policy: await loadFunctionPolicy(query, options.settings.allowedFunctions),
      catalog: options.catalog ?? (await fetchSampleValues(query, await introspectCatalog(query))),
    }));
    context.emit({
      type: "catalog-end",
      tables: catalog.tables.length,
      columns: countColumns(catalog),
      source: options.catalog ? "index" : "introspection",
    });
    if (catalog.tables.length === 0) {
      throw new UnanswerableQuestionError("the asking role cannot read any table or view in this database", {
        question: options.question,
      });
    }
    context.throwIfCancelled();
    let selected: Catalog = catalog;
    let hint = options.hint;
    if (options.schemaSelector) {
      context.emit({ type: "schema-start", tables: catalog.tables.length, columns: countColumns(catalog) });
      const selection = await options.schemaSelector.select({ catalog, context });
      selected = selection.catalog;
      hint = joinHints(options.hint, selection.hint);
      context.emit({ type: "schema-end", tables: selected.tables.length, columns: countColumns(selected) });
    }
    const generationContext = hint === options.hint ? context : { ...context, hint };
    const generation = await generateCandidates({
      catalog: selected,
      fullCatalog: catalog,
      context: generationContext,
      previousTurns: options.previousTurns,
      examples: options.verifiedExamples ?? [],
      policy,
      execute: (sql) =>
        runReadOnly(scope, (query) =>
          queryWithRowLimit(query, sql, options.settings.rowLimit, options.settings.resultByteLimit),
        ),
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
    const confidence = selection.confidence;
    const summary = await summarizeAnswer({ sql: chosen.sql, result: chosen.result, context });
    const answer: Answer = {
      question: options.question,
      sql: chosen.sql,
      result: chosen.result.result,
      truncated: chosen.result.truncated,
      ...(chosen.result.truncatedBy === undefined ? {} : { truncatedBy: chosen.result.truncatedBy }),
      ...(confidence === undefined ? {} : { confidence }),
      selection: selection.summary,
      model,
      explanation: shorten(generation.reasoning.get(chosen.index) ?? ""),
      ...(summary === undefined ? {} : { summary }),
      candidates,
      calls: [...context.calls],
      elapsedMilliseconds: elapsed(),
    };
    context.emit({ type: "pipeline-end", sql: answer.sql, rows, elapsedMilliseconds: answer.elapsedMilliseconds });
    await record({ sql: answer.sql, ok: true, confidence: confidence ?? null, rows });
    return answer;
  } catch (caught) {
    const error =
      options.abortSignal?.aborted && !(caught instanceof CancelledError)
        ? new CancelledError(undefined, { cause: caught })
        : caught;
    const code = error instanceof NlqError ? error.code : "XX000";
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
