import { type Catalog, countColumns } from "../catalog/catalog-types";
import { introspectCatalog } from "../catalog/introspect-catalog";
import type { KnowledgeUsed } from "../contract/knowledge";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { UnanswerableQuestionError } from "../errors/question-errors";
import {
  knowledgeUsed,
  promptKnowledge,
  readableQuestionKnowledge,
  retrieveQuestionKnowledge,
  withReferencedElements,
} from "../knowledge/question-knowledge";
import type { StepContext } from "../llm/step-context";
import { flagReadings } from "../readings/flag-readings";
import { planReadings, type ReadingPlan } from "../readings/plan-readings";
import { fetchSampleValues } from "../schema/sample-values";
import { sharedFunctionPolicyCache } from "../sql/function-policy-cache";
import { loadSqlParser } from "../sql/validate-sql";
import type { AnswerQuestionOptions } from "./answer-question-options";
import { type GeneratedCandidates, generateCandidates } from "./generate-candidates";
import { readSessionDate } from "./session-date";

export interface WriteQuestionCandidatesOptions
  extends Pick<
    AnswerQuestionOptions,
    "session" | "transactionStatus" | "catalog" | "schemaSelector" | "previousTurns" | "verifiedExamples" | "knowledge"
  > {
  /**
   * The question's step context (`createStepContext`): question, user's hint, settings, budget, cancellation, events
   * and the record of model calls.
   */
  readonly context: StepContext;
}

/** What the stages before selection produced for one question. */
export interface QuestionCandidates {
  /** Everything the asking role may read (the index's catalog or live introspection). */
  readonly catalog: Catalog;
  /** The catalog the generators wrote against (the schema selector's subset, or `catalog`). */
  readonly selected: Catalog;
  /**
   * The context generation ran with, and selection must run with: the question's own, with the schema selector's
   * hint (retrieved values, descriptions) joined to the user's, and the question context (the knowledge retrieved for
   * the question, the session's date and time zone).
   */
  readonly context: StepContext;
  /** The knowledge entries that reached the prompts (retrieved ones, then descriptions of the selected schema). */
  readonly knowledgeUsed: readonly KnowledgeUsed[];
  /** Every candidate, what happened to it, and the ones that ran (possibly none: `generation.firstError` says why). */
  readonly generation: GeneratedCandidates;
  /** The reading step's plan: the readings candidates were written for, and the confirmations followed. */
  readonly readings: ReadingPlan;
}

function joinHints(...hints: Array<string | undefined>): string | undefined {
  const present = hints.map((hint) => hint?.trim()).filter((hint): hint is string => Boolean(hint));
  return present.length > 0 ? present.join("\n") : undefined;
}

/**
 * The live path of one question up to, and not including, selection: function policy and catalog (from the caller's
 * index or introspection) → optional schema selection (retrieval and CHESS SS) → the reading step (`planReadings`, when
 * the preset runs it: readings of a phrase in doubt, confirmed readings of `knowledge` followed; `flagReadings`, one
 * model call, when the schema shows no phrase in doubt) → generation (the
 * preset's generators × samples, shared among the readings) → fixing → execution, all read-only on `options.session` as the asking role. `answerQuestion` continues
 * with `selectAnswer`; `nlq selector-data` labels the candidates against gold SQL instead. Emits the catalog, schema
 * and candidate events; throws `UnanswerableQuestionError` when the role can read no table, and `CancelledError` on a
 * cancel. A question none of whose candidates ran is returned, not thrown (`generation.executed` is empty).
 */
export async function writeQuestionCandidates(options: WriteQuestionCandidatesOptions): Promise<QuestionCandidates> {
  const { context } = options;
  const settings = context.settings;
  const scope = {
    session: options.session,
    transactionStatus: options.transactionStatus ?? "idle",
    statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
    abortSignal: context.abortSignal,
  };
  context.throwIfCancelled();
  context.emit({ type: "catalog-start" });
  // One read-only scope loads what the question needs from the database: the function policy (always, under the
  // asking role and its search path) and the catalog (unless the index supplied it).
  const loaded = await runReadOnly(scope, async (query) => {
    const policy = await sharedFunctionPolicyCache.load(query, settings.allowedFunctions, settings.trustedOwners);
    return {
      policy,
      catalog: options.catalog ?? (await fetchSampleValues(query, await introspectCatalog(query), { policy })),
      today: await readSessionDate(query),
    };
  });
  const { policy, today } = loaded;
  // Only knowledge naming what the role may read is kept (its SQL parsed: the parser must be loaded); descriptions
  // among it replace the schema's comments.
  if (options.knowledge?.some((entry) => entry.sql)) await loadSqlParser();
  const knowledge = readableQuestionKnowledge(options.knowledge, loaded.catalog);
  const catalog = knowledge.catalog;
  context.emit({
    type: "catalog-end",
    tables: catalog.tables.length,
    columns: countColumns(catalog),
    source: options.catalog ? "index" : "introspection",
  });
  if (catalog.tables.length === 0) {
    throw new UnanswerableQuestionError("the asking role cannot read any table or view in this database", {
      question: context.question,
    });
  }
  context.throwIfCancelled();
  let selected: Catalog = catalog;
  let hint = context.hint;
  let selectedKeywords: readonly string[] | undefined;
  if (options.schemaSelector) {
    context.emit({ type: "schema-start", tables: catalog.tables.length, columns: countColumns(catalog) });
    const selection = await options.schemaSelector.select({ catalog, context });
    selected = selection.catalog;
    hint = joinHints(context.hint, selection.hint);
    selectedKeywords = selection.keywords;
    context.emit({ type: "schema-end", tables: selected.tables.length, columns: countColumns(selected) });
  }
  const keywords = selectedKeywords;
  const retrieved = await retrieveQuestionKnowledge({
    retrievable: knowledge.retrievable,
    context,
    ...(keywords ? { keywords } : {}),
  });
  context.throwIfCancelled();
  selected = withReferencedElements(
    selected,
    catalog,
    retrieved.map(({ entry }) => entry),
  );
  const generationContext: StepContext = {
    ...context,
    ...(hint === undefined ? {} : { hint }),
    questionContext: { knowledge: promptKnowledge(retrieved), ...today },
  };
  // The reading step: a phrase in doubt gets one reading per meaning; a confirmed reading the role may read decides.
  // When the schema shows no phrase in doubt, one model call looks for what names cannot tell (column synonyms).
  let readings: ReadingPlan = { readings: [], followed: [], common: { instructions: [], tables: [] } };
  if (settings.readings) {
    const plan = { question: context.question, selected, catalog, knowledge: knowledge.retrievable };
    readings = planReadings(plan);
    if (readings.readings.length === 0) {
      const flagged = await flagReadings({ context: generationContext, selected });
      if (flagged.length > 0) readings = planReadings({ ...plan, flagged });
    }
  }
  if (settings.readings) {
    context.emit({
      type: "readings-end",
      readings: readings.readings.map((reading) => ({ phrase: reading.phrase, meaning: reading.chosen.label })),
      followed: readings.followed.map((followed) => ({ phrase: followed.phrase, meaning: followed.chosen.label })),
    });
  }
  const generation = await generateCandidates({
    catalog: selected,
    fullCatalog: catalog,
    context: generationContext,
    previousTurns: options.previousTurns,
    examples: options.verifiedExamples ?? [],
    policy,
    readings,
    execute: (sql) =>
      runReadOnly(scope, (query) => queryWithRowLimit(query, sql, settings.rowLimit, settings.resultByteLimit)),
  });
  return {
    catalog,
    selected,
    context: generationContext,
    generation,
    knowledgeUsed: knowledgeUsed(retrieved, knowledge.descriptions, selected),
    readings,
  };
}
