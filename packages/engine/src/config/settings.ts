import { z } from "zod";
import { ConfigurationError } from "../errors";
import { isStepName, pipelineSteps, stepNames, stepVariableNames } from "../steps/step-registry";

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
  /** `NLQ_MAX_FIX_ATTEMPTS`: revisions per candidate after an error or empty result (β). Default 3. */
  readonly maxFixAttempts: number;
  /** `NLQ_TEMPERATURE`: sampling temperature of every step, 0–2. Default 0. */
  readonly temperature: number;
  /** `NLQ_MAX_LLM_CALLS`: most language-model calls for one question. Default 20. */
  readonly maxLlmCalls: number;
  /** `NLQ_DEADLINE_MS`: wall-clock budget for one question, in milliseconds. Default 120000. */
  readonly deadlineMilliseconds: number;
  /** `NLQ_MAX_TOKENS`: most input + output tokens for one question; 0 = no limit. Default 0. */
  readonly maxTokens: number;
  /**
   * `NLQ_SHUTDOWN_GRACE_MS`: on SIGTERM/SIGINT, how long the proxy lets running statements finish before it
   * cancels them and closes every connection, in milliseconds. Default 10000.
   */
  readonly shutdownGraceMilliseconds: number;
}

const modelReferencePattern = /^[a-z][a-z0-9-]*:.+$/;
const modelReference = z
  .string()
  .trim()
  .regex(
    modelReferencePattern,
    "expected provider:model, e.g. openai:gpt-4o-mini or scripted:fixtures/demo-model.json",
  );

function integerVariable(defaultValue: number, minimum: number) {
  return z
    .string()
    .trim()
    .regex(/^\d+$/, "expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(minimum))
    .optional()
    .transform((value) => value ?? defaultValue);
}

const environmentSchema = z.object({
  NLQ_MODEL: modelReference.optional(),
  NLQ_OPENAI_COMPATIBLE_URL: z.string().trim().url().optional(),
  NLQ_OPENAI_COMPATIBLE_API_KEY: z.string().trim().min(1).optional(),
  NLQ_STATEMENT_TIMEOUT_MS: integerVariable(15_000, 1),
  NLQ_ROW_LIMIT: integerVariable(1_000, 1),
  NLQ_RESULT_BYTE_LIMIT: integerVariable(16 * 1024 * 1024, 1),
  NLQ_ALLOWED_FUNCTIONS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== ""),
    )
    .pipe(
      z.array(z.string().regex(/^([a-z_][a-z0-9_$]*\.)?[a-z_][a-z0-9_$]*$/, "expected name or schema.name entries")),
    )
    .optional()
    .transform((value) => value ?? []),
  NLQ_MAX_FIX_ATTEMPTS: integerVariable(3, 0),
  NLQ_MAX_LLM_CALLS: integerVariable(20, 1),
  NLQ_DEADLINE_MS: integerVariable(120_000, 1),
  NLQ_MAX_TOKENS: integerVariable(0, 0),
  NLQ_SHUTDOWN_GRACE_MS: integerVariable(10_000, 0),
  NLQ_TEMPERATURE: z
    .string()
    .trim()
    .transform(Number)
    .pipe(z.number().min(0).max(2))
    .optional()
    .transform((value) => value ?? 0),
});

/** Reads and validates the `NLQ_*` variables. Empty strings count as unset. Throws `ConfigurationError` naming each bad variable. */
export function loadSettings(environment: Record<string, string | undefined>): Settings {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (name.startsWith("NLQ_") && value !== undefined && value.trim() !== "") present[name] = value;
  }
  const parsed = environmentSchema.safeParse(present);
  const problems: string[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  const stepModels: Record<string, string> = {};
  for (const [name, value] of Object.entries(present)) {
    if (!name.startsWith("NLQ_MODEL_")) continue;
    const step = name.slice("NLQ_MODEL_".length).toLowerCase().replaceAll("_", "-");
    if (!stepVariableSuffixes.has(step)) {
      problems.push(`${name}: no pipeline step is called that; use one of ${[...stepVariableSuffixes].join(", ")}`);
      continue;
    }
    const reference = modelReference.safeParse(value);
    if (reference.success) stepModels[step] = reference.data;
    else problems.push(`${name}: ${reference.error.issues[0]?.message ?? "invalid"}`);
  }
  if (!parsed.success || problems.length > 0) {
    throw new ConfigurationError(`invalid nlq configuration: ${problems.join("; ")}`);
  }
  const values = parsed.data;
  return {
    model: values.NLQ_MODEL,
    stepModels,
    openAiCompatibleUrl: values.NLQ_OPENAI_COMPATIBLE_URL,
    openAiCompatibleApiKey: values.NLQ_OPENAI_COMPATIBLE_API_KEY,
    statementTimeoutMilliseconds: values.NLQ_STATEMENT_TIMEOUT_MS,
    rowLimit: values.NLQ_ROW_LIMIT,
    resultByteLimit: values.NLQ_RESULT_BYTE_LIMIT,
    allowedFunctions: values.NLQ_ALLOWED_FUNCTIONS,
    maxFixAttempts: values.NLQ_MAX_FIX_ATTEMPTS,
    temperature: values.NLQ_TEMPERATURE,
    maxLlmCalls: values.NLQ_MAX_LLM_CALLS,
    deadlineMilliseconds: values.NLQ_DEADLINE_MS,
    maxTokens: values.NLQ_MAX_TOKENS,
    shutdownGraceMilliseconds: values.NLQ_SHUTDOWN_GRACE_MS,
  };
}

/** The lower-case suffixes (`generate`, `fix-candidate`, …) that `NLQ_MODEL_<SUFFIX>` may carry. */
const stepVariableSuffixes: ReadonlySet<string> = new Set(
  stepNames.flatMap((step) =>
    stepVariableNames(step).map((variable) => variable.slice("NLQ_MODEL_".length).toLowerCase().replaceAll("_", "-")),
  ),
);

/**
 * The model reference (`provider:model`) a step uses: `NLQ_MODEL_<FULL_STEP_NAME>` first
 * (`NLQ_MODEL_GENERATE_CANDIDATE`), then the step's short aliases from the step registry (`NLQ_MODEL_GENERATE`),
 * then `NLQ_MODEL`.
 */
export function modelReferenceForStep(settings: Settings, step: string): string | undefined {
  const exact = settings.stepModels[step];
  if (exact) return exact;
  const aliases = isStepName(step) ? pipelineSteps[step].variableAliases : [];
  for (const alias of aliases) {
    const aliased = settings.stepModels[alias.toLowerCase()];
    if (aliased) return aliased;
  }
  return settings.model;
}
