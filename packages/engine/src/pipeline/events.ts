/**
 * Typed progress events of the pipeline, named noun-verb. The proxy turns them into NOTICEs when asked,
 * the web app into UI parts, the CLI into progress lines.
 */
export type PipelineEvent =
  | { readonly type: "pipeline-start"; readonly question: string }
  | {
      readonly type: "catalog-end";
      readonly tables: number;
      readonly columns: number;
      readonly source: "index" | "introspection";
    }
  | {
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
  | {
      readonly type: "values-end";
      /** Database values matching a keyword (CHESS retrieve_entity), `table` as `schema.table`. */
      readonly values: ReadonlyArray<{ keyword: string; table: string; column: string; value: string }>;
    }
  | { readonly type: "schema-end"; readonly tables: number; readonly columns: number }
  | { readonly type: "candidate-start"; readonly candidate: number; readonly generator: string }
  | {
      readonly type: "candidate-end";
      readonly candidate: number;
      readonly sql: string;
      readonly ok: boolean;
      readonly error?: string;
      readonly rows?: number;
    }
  | { readonly type: "fix-start"; readonly candidate: number; readonly attempt: number; readonly reason: string }
  | { readonly type: "fix-end"; readonly candidate: number; readonly attempt: number; readonly sql: string }
  | { readonly type: "selection-end"; readonly sql: string; readonly confidence: number; readonly clusters: number }
  | { readonly type: "llm-call-end"; readonly call: LlmCallRecord }
  | {
      readonly type: "pipeline-end";
      readonly sql: string;
      readonly rows: number;
      readonly elapsedMilliseconds: number;
    };

/** Accounting for one language-model call. */
export interface LlmCallRecord {
  readonly step: string;
  /** `provider:model` as configured, e.g. `openai:gpt-4o-mini` or `scripted:demo.json`. */
  readonly model: string;
  /** True when the answer came from a scripted (recorded) model, not a language model. */
  readonly scripted: boolean;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMilliseconds: number;
}

export type PipelineEventListener = (event: PipelineEvent) => void;
