import type { StepName } from "../steps/step-registry";

/**
 * Typed progress events of the pipeline, named noun-verb: every stage opens with `<stage>-start` and closes with
 * `<stage>-end`, in the papers' order — pipeline, catalog, keywords → values → context → crush (retrieval), schema
 * (selection), readings (its end only), candidate and fix (generation and fixing), selection, then summary (the plain-language sentence) — plus one `llm-call-start`/`llm-call-end` pair
 * around every language-model call. An error may leave a start without its end: surfaces close whatever is still
 * open when the question ends.
 *
 * Surfaces (`nlq ask`'s lines, the proxy's NOTICEs, the web app's steps) word them through one exhaustive switch,
 * `describeProgressStep` (progress/); the telemetry's stage spans map them with another; a new member here does not
 * compile until both handle it.
 */
export type PipelineEvent =
  | PipelineStartEvent
  | PipelineEndEvent
  | CatalogStartEvent
  | CatalogEndEvent
  | KeywordsStartEvent
  | KeywordsEndEvent
  | ValuesStartEvent
  | ValuesEndEvent
  | ContextStartEvent
  | ContextEndEvent
  | CrushStartEvent
  | CrushEndEvent
  | SchemaStartEvent
  | SchemaEndEvent
  | ReadingsEndEvent
  | CandidateStartEvent
  | CandidateEndEvent
  | FixStartEvent
  | FixEndEvent
  | SelectionStartEvent
  | SelectionEndEvent
  | SummaryStartEvent
  | SummaryEndEvent
  | LlmCallStartEvent
  | LlmCallEndEvent;

/** The question was received; the first event of every question. */
export interface PipelineStartEvent {
  readonly type: "pipeline-start";
  readonly question: string;
}

/** The answer's SQL ran; the last event of a question that was answered. */
export interface PipelineEndEvent {
  readonly type: "pipeline-end";
  readonly sql: string;
  readonly rows: number;
  readonly elapsedMilliseconds: number;
}

/** Reading the catalog (tables and columns the asking role may read) begins. */
export interface CatalogStartEvent {
  readonly type: "catalog-start";
}

export interface CatalogEndEvent {
  readonly type: "catalog-end";
  readonly tables: number;
  readonly columns: number;
  /** `index`: the catalog index `nlq index` built; `introspection`: read live from the database. */
  readonly source: "index" | "introspection";
}

/** CHESS IR extract_keywords begins. */
export interface KeywordsStartEvent {
  readonly type: "keywords-start";
}

export interface KeywordsEndEvent {
  readonly type: "keywords-end";
  readonly keywords: readonly string[];
  /**
   * Who extracted them: the `extract-keywords` model step, or `heuristicKeywords` (the step is switched off, or
   * its call failed — e.g. a scripted fixture without an `extract-keywords` response; `fallbackReason` says why).
   */
  readonly source: "model" | "heuristic";
  /** Why the heuristic replaced a model step that was switched on; absent otherwise. */
  readonly fallbackReason?: string;
}

/** CHESS IR retrieve_entity begins: the value index is searched for the keywords. */
export interface ValuesStartEvent {
  readonly type: "values-start";
  /** How many keywords are looked up. */
  readonly keywords: number;
}

export interface ValuesEndEvent {
  readonly type: "values-end";
  /** Database values matching a keyword (CHESS retrieve_entity), `table` as `schema.table`. */
  readonly values: ReadonlyArray<{ keyword: string; table: string; column: string; value: string }>;
}

/** CHESS IR retrieve_context begins: the vector store is searched for table and column descriptions. */
export interface ContextStartEvent {
  readonly type: "context-start";
}

export interface ContextEndEvent {
  readonly type: "context-end";
  /** Tables (no `column`) and columns whose descriptions matched, best first; `table` as `schema.table`. */
  readonly hits: ReadonlyArray<{ table: string; column?: string }>;
}

/** CRUSH4SQL begins: a minimal schema is hallucinated and used to choose a budgeted subset of the catalog. */
export interface CrushStartEvent {
  readonly type: "crush-start";
  /** Most columns the subset may hold. */
  readonly budget: number;
}

export interface CrushEndEvent {
  readonly type: "crush-end";
  /** The hallucinated schema elements as the model wrote them. */
  readonly hallucinated: readonly string[];
  /** Columns in the chosen subset that the asking role may read (picks outside its catalog are dropped). */
  readonly columns: number;
  /**
   * Why CRUSH picked nothing: its `hallucinate-schema` call failed (no model, no scripted response, bad output, budget
   * spent), so the question went on with the other retrieval only; absent when CRUSH ran.
   */
  readonly fallbackReason?: string;
}

/** CHESS SS (filter_column, select_tables, select_columns) begins on the catalog (or CRUSH's subset). */
export interface SchemaStartEvent {
  readonly type: "schema-start";
  readonly tables: number;
  readonly columns: number;
}

export interface SchemaEndEvent {
  readonly type: "schema-end";
  readonly tables: number;
  readonly columns: number;
}

/** A generator writes one candidate (numbered from 0). */
export interface CandidateStartEvent {
  readonly type: "candidate-start";
  readonly candidate: number;
  readonly generator: string;
  /** Which sample of its generator (0, 1, …). */
  readonly sample: number;
}

export interface CandidateEndEvent {
  readonly type: "candidate-end";
  readonly candidate: number;
  readonly sql: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly rows?: number;
}

/** The fixer revises a candidate after an error or an empty result (`attempt` from 1). */
export interface FixStartEvent {
  readonly type: "fix-start";
  readonly candidate: number;
  readonly attempt: number;
  /** `empty result` or `SQLSTATE: message`. */
  readonly reason: string;
}

export interface FixEndEvent {
  readonly type: "fix-end";
  readonly candidate: number;
  readonly attempt: number;
  readonly sql: string;
}

/** The answer is chosen among the candidates that ran. */
export interface SelectionStartEvent {
  readonly type: "selection-start";
  /** Candidates that ran. */
  readonly candidates: number;
  /** Distinct execution results among them. */
  readonly clusters: number;
  /** The selector that will choose (`single` when all agree: no selector is asked). */
  readonly selector: string;
}

export interface SelectionEndEvent {
  readonly type: "selection-end";
  readonly sql: string;
  /** See `Answer.confidence`; absent when a single candidate was written. */
  readonly confidence?: number;
  /** Candidates written. */
  readonly candidates: number;
  /** Distinct execution results among the candidates that ran. */
  readonly clusters: number;
  readonly selector: string;
  /** How the confidence was computed. */
  readonly basis: string;
}

/**
 * The reading step decided, before generation (it calls no model, so it has no start event): the readings the
 * candidates are written for (none when the schema shows no doubt) and the confirmed readings it followed instead of
 * asking.
 */
export interface ReadingsEndEvent {
  readonly type: "readings-end";
  /** One per reading, in order: the phrase and what it means in that reading. */
  readonly readings: ReadonlyArray<{ readonly phrase: string; readonly meaning: string }>;
  /** One per confirmed reading followed: the phrase and the confirmed meaning. */
  readonly followed: ReadonlyArray<{ readonly phrase: string; readonly meaning: string }>;
}

/**
 * The `summarize-answer` step begins: one plain-language sentence about the chosen result (when the preset's
 * `summarizeAnswer` is on).
 */
export interface SummaryStartEvent {
  readonly type: "summary-start";
  /** Rows of the chosen result (the prompt shows at most the first 20 of them). */
  readonly rows: number;
}

export interface SummaryEndEvent {
  readonly type: "summary-end";
  /** The sentence, as `Answer.summary.sentence` holds it (plain text, capped); absent when there is none. */
  readonly sentence?: string;
  /** Why there is no sentence: the budget was spent, or the call failed (no scripted response, bad output, …). */
  readonly omittedReason?: string;
}

/** A language-model call of `step` begins (its label: `pipelineSteps[step].label`). */
export interface LlmCallStartEvent {
  readonly type: "llm-call-start";
  readonly step: StepName;
}

/**
 * A language-model call ended: every `llm-call-start` that reached the model (or the response cache) gets one, a failed
 * call too (`call.failure` set), so counts and tokens include what failed.
 */
export interface LlmCallEndEvent {
  readonly type: "llm-call-end";
  readonly call: LlmCallRecord;
}

/** Accounting for one language-model call. */
export interface LlmCallRecord {
  readonly step: string;
  /** `provider:model` as configured, e.g. `openai:gpt-4o-mini` or `scripted:demo.json`. */
  readonly model: string;
  /** True when the answer came from a scripted (recorded) model, not a language model. */
  readonly scripted: boolean;
  /** True when the response came from the response cache (an identical earlier call): no model was called. */
  readonly cached?: boolean;
  /**
   * Set when the call failed: its output did not match the step's schema (`unreadable-output`), the provider refused
   * the request as sent (`refused`: an HTTP 4xx that retrying cannot fix, e.g. a schema its structured outputs do
   * not accept, or a bad key), the provider call errored otherwise (`call-failed`), or it was cancelled or ran past
   * the question's deadline (`cancelled`). Tokens are the provider's figures where it reported them, else 0.
   */
  readonly failure?: "unreadable-output" | "refused" | "call-failed" | "cancelled";
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMilliseconds: number;
}

export type PipelineEventListener = (event: PipelineEvent) => void;

/** The event types, one per member of `PipelineEvent`. */
export type PipelineEventType = PipelineEvent["type"];

/**
 * The `default` branch of a surface's exhaustive `switch (event.type)`: it does not compile while an event type is
 * unhandled (`event` is then not `never`). At run time it ignores the event (progress must never fail a question).
 */
export function unhandledEvent(_event: never): undefined {
  return undefined;
}
