import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createPgExecutor, createQuestionAnswerer, type QuestionAnswererOptions } from "@nlq/adapters";
import {
  type AnswerQuestionOptions,
  alwaysQuoteIdentifier,
  builtInPresetNames,
  loadSettings,
  NlqError,
  type PairwiseCallCount,
  pairwiseCallCount,
  type ResolvedModel,
  resolveStepModel,
  type Settings,
} from "@nlq/engine";
import pg from "pg";
import { createRecordingModel, modelRounds, type RecordedCall } from "./recording-model";

/** Steps whose calls choose among candidates (the pairwise agent, the unit tester). */
export const selectionSteps: readonly string[] = ["select-candidate", "generate-unit-tests", "evaluate-unit-tests"];

export interface PresetBenchmarkOptions {
  /** A database holding the questions' data (the demo: `nlq demo load`). */
  readonly url: string;
  /** The questions, asked in order; a question with a `schema` is asked with `search_path` set to it. */
  readonly questions: ReadonlyArray<string | PresetQuestion>;
  /**
   * The metadata store `nlq index` wrote: each question then takes the production path of an indexed database
   * (`createQuestionAnswerer`: indexed catalog, CHESS selector, CRUSH on large catalogs). Default: none, so the
   * production path of a database nothing is indexed for (the catalog introspected live, values from the live lookup).
   */
  readonly metadataStore?: QuestionAnswererOptions["store"];
  /** Presets measured (built-in names or preset files). Default: every built-in preset. */
  readonly presets?: readonly string[];
  /**
   * Variables the settings are loaded from (`NLQ_PRESET` is set per preset on top), e.g.
   * `{ NLQ_MODEL: "scripted:fixtures/demo-model.json" }`.
   */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Model of each step; default from the settings (`resolveStepModel`). Tests pass mock models. */
  readonly resolveModel?: AnswerQuestionOptions["resolveModel"];
  /**
   * Each model call waits this long before its answer (a remote model's latency, simulated over a scripted model), so
   * `elapsedMilliseconds` shows the time to the answer that the critical path (`modelRounds`) costs. Default 0.
   */
  readonly simulatedLatencyMilliseconds?: number;
  readonly onQuestion?: (preset: string, measurement: PresetQuestionMeasurement, index: number) => void;
}

/** A question asked in one schema (`search_path`), e.g. a Spider question in its database's schema. */
export interface PresetQuestion {
  readonly question: string;
  readonly schema?: string;
}

/** What CRUSH did for one question (`crush-end`): columns kept, or why it fell back to no picks. */
export interface CrushMeasurement {
  readonly budget: number;
  readonly columns: number;
  readonly hallucinated: readonly string[];
  readonly fallbackReason?: string;
}

/** One question answered with one preset. */
export interface PresetQuestionMeasurement {
  readonly question: string;
  readonly ok: boolean;
  /** `SQLSTATE: message` when the engine failed. */
  readonly error?: string;
  /**
   * Model calls per step: every call that reached the model (recorded by the wrapper), failed calls and failed
   * questions included.
   */
  readonly callsByStep: Readonly<Record<string, number>>;
  /** Calls that reached the model but did not complete (failed, or never ended because the question failed). */
  readonly failedCalls: number;
  /** Characters sent per step (system + prompt messages, recorded by the wrapper around the model). */
  readonly charactersByStep: Readonly<Record<string, number>>;
  /** Candidates written, failed ones included (answered questions only). */
  readonly candidates?: number;
  /** Distinct results among the candidates that ran (answered questions only). */
  readonly clusters?: number;
  /** The selector that chose (`single` when the candidates agreed; self-consistency when the configured one failed). */
  readonly selector?: string;
  /** How the engine says the answer was chosen (`Answer.selection.basis`). */
  readonly basis?: string;
  /** Pairwise selection calls cluster pairing makes, and what all-pairs comparisons would make. */
  readonly pairwise?: PairwiseCallCount;
  /** CRUSH's `crush-start`/`crush-end` in the live path; absent when it did not run (preset, small catalog, no index). */
  readonly crush?: CrushMeasurement;
  /** Columns shown to generation (`schema-end`), when the pipeline reported it. */
  readonly schemaColumns?: number;
  /** Sequential model rounds: the longest chain of calls each waiting for the one before (`modelRounds`). */
  readonly modelRounds: number;
  /** `filter-column` calls (its batches), when the step ran. */
  readonly filterBatches?: { readonly calls: number };
  readonly elapsedMilliseconds: number;
}

export interface PresetMeasurement {
  readonly preset: string;
  /** The model that generated SQL, as configured, and whether it is a scripted replay. */
  readonly model: { readonly id: string; readonly scripted: boolean };
  /** The selector the preset configures for candidates that disagree. */
  readonly selector: string;
  readonly questions: readonly PresetQuestionMeasurement[];
}

function count(into: Record<string, number>, step: string, amount: number): void {
  into[step] = (into[step] ?? 0) + amount;
}

function isLanguageModelV3(model: ResolvedModel["model"]): model is LanguageModelV3 {
  return typeof model === "object" && model.specificationVersion === "v3";
}

/** Resolves each step's model and wraps it so that the characters of every call reach `onCall`. */
function recordingResolver(
  settings: Settings,
  resolve: AnswerQuestionOptions["resolveModel"],
  onCall: (call: RecordedCall) => void,
  simulatedLatencyMilliseconds: number,
): (step: string) => ResolvedModel {
  return (step) => {
    const resolved = resolve ? resolve(step) : resolveStepModel(settings, step);
    if (!isLanguageModelV3(resolved.model)) {
      throw new Error(`cannot record the prompts of model ${resolved.id}: not an AI SDK LanguageModelV3`);
    }
    return {
      ...resolved,
      model: createRecordingModel(resolved.model, onCall, { simulatedLatencyMilliseconds }),
    };
  };
}

/** How many candidates each execution cluster holds, from an answer's candidate records. */
function clusterMembers(candidates: ReadonlyArray<{ readonly cluster?: number }>): number[][] {
  const members: number[][] = [];
  candidates.forEach((candidate, index) => {
    if (candidate.cluster === undefined) return;
    members[candidate.cluster] ??= [];
    members[candidate.cluster]!.push(index);
  });
  return members.filter((cluster) => cluster !== undefined);
}

/**
 * Answers every question with each preset through the production path (`createQuestionAnswerer` on one session of
 * `url`: the catalog index with `metadataStore`, else the catalog introspected live; retrieval either way), recording per question the model calls (as they reach the model) and characters sent per step, candidates, distinct results, the pairwise selection calls against all-pairs, and wall time. Questions run
 * one after another; a failed question is measured and reported as failed.
 */
export async function runPresetBenchmark(options: PresetBenchmarkOptions): Promise<PresetMeasurement[]> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const session = createPgExecutor(client, { name: "nlq-bench-presets" });
    // What `nlq ask` runs: the index when there is one, retrieval on every question (no background value index, whose
    // build would finish at a different question on each run).
    const answerer = createQuestionAnswerer({ store: options.metadataStore, url: options.url });
    const results: PresetMeasurement[] = [];
    for (const preset of options.presets ?? builtInPresetNames) {
      const settings = loadSettings({ ...options.environment, NLQ_PRESET: preset });
      let recorded: RecordedCall[] = [];
      const resolveModel = recordingResolver(
        settings,
        options.resolveModel,
        (call) => recorded.push(call),
        options.simulatedLatencyMilliseconds ?? 0,
      );
      const generator = resolveModel("generate-candidate");
      const measurements: PresetQuestionMeasurement[] = [];
      for (const [index, entry] of options.questions.entries()) {
        const { question, schema } = typeof entry === "string" ? { question: entry, schema: undefined } : entry;
        recorded = [];
        let completed = 0;
        let crushBudget: number | undefined;
        let crush: CrushMeasurement | undefined;
        let schemaColumns: number | undefined;
        const started = performance.now();
        let measurement: PresetQuestionMeasurement;
        const counted = () => {
          const callsByStep: Record<string, number> = {};
          const charactersByStep: Record<string, number> = {};
          for (const call of recorded) {
            count(callsByStep, call.step, 1);
            count(charactersByStep, call.step, call.systemCharacters + call.promptCharacters);
          }
          const filterCalls = recorded.filter((call) => call.step === "filter-column");
          return {
            callsByStep,
            charactersByStep,
            failedCalls: recorded.length - completed,
            modelRounds: modelRounds(recorded),
            ...(filterCalls.length > 0 ? { filterBatches: { calls: filterCalls.length } } : {}),
          };
        };
        const observed = () => ({
          ...(crush === undefined ? {} : { crush }),
          ...(schemaColumns === undefined ? {} : { schemaColumns }),
        });
        try {
          if (schema !== undefined) await session.query({ sql: `SET search_path TO ${alwaysQuoteIdentifier(schema)}` });
          const answer = await answerer.answer({
            question,
            session,
            settings,
            origin: "bench",
            resolveModel,
            onEvent: (event) => {
              if (event.type === "llm-call-end" && event.call.failure === undefined) completed += 1;
              if (event.type === "crush-start") crushBudget = event.budget;
              if (event.type === "crush-end")
                crush = {
                  budget: crushBudget ?? 0,
                  columns: event.columns,
                  hallucinated: event.hallucinated,
                  ...(event.fallbackReason === undefined ? {} : { fallbackReason: event.fallbackReason }),
                };
              if (event.type === "schema-end") schemaColumns = event.columns;
            },
          });
          const elapsedMilliseconds = performance.now() - started;
          const clusters = clusterMembers(answer.candidates).map((members) => ({ members }));
          const executed = answer.candidates.filter((candidate) => candidate.cluster !== undefined);
          measurement = {
            question,
            ok: true,
            ...counted(),
            candidates: answer.selection.candidates,
            clusters: answer.selection.clusters,
            selector: answer.selection.selector,
            basis: answer.selection.basis,
            pairwise: pairwiseCallCount(executed, clusters),
            ...observed(),
            elapsedMilliseconds,
          };
        } catch (error) {
          const elapsedMilliseconds = performance.now() - started;
          const message = error instanceof Error ? error.message : String(error);
          measurement = {
            question,
            ok: false,
            error: NlqError.isInstance(error) ? `${error.code}: ${message}` : message,
            ...counted(),
            ...observed(),
            elapsedMilliseconds,
          };
        } finally {
          if (schema !== undefined) await session.query({ sql: "RESET search_path" });
        }
        measurements.push(measurement);
        options.onQuestion?.(preset, measurement, index);
      }
      results.push({
        preset: settings.preset.name,
        model: { id: generator.id, scripted: generator.scripted },
        selector: settings.selector,
        questions: measurements,
      });
    }
    return results;
  } finally {
    await client.end();
  }
}
