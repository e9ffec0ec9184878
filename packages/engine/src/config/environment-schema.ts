import { z } from "zod";
import { embeddingProviders } from "../embedding/resolve-embedding-model";
import { ConfigurationError } from "../errors";
import { stepNames, stepVariableNames } from "../steps/step-registry";
import { builtInPresetNames, defaultPresetName, type Preset, resolvePreset } from "./presets";
import {
  type SchemaSelectionSteps,
  schemaSelectionPresets,
  schemaSelectionStepNames,
  schemaSelectionStepsFrom,
} from "./schema-selection-steps";
import {
  decimalVariable,
  optionalPortVariable,
  optionalWholeNumberVariable,
  parsedVariable,
  portVariable,
  quotedValue,
  switchVariable,
  textVariable,
  urlVariable,
  wholeNumberVariable,
} from "./variable-schemas";

/** Default of `NLQ_MAX_QUESTION_LENGTH`: the longest question nlq accepts, in characters (proxy, CLI and web alike). */
export const DEFAULT_MAX_QUESTION_LENGTH = 4_000;

/**
 * The one schema of nlq's configuration: every `NLQ_*` variable (and `DATABASE_URL`) with its default and its check.
 * `loadSettings` builds the pipeline's `Settings` from it, `loadServiceSettings` the servers' `ServiceSettings`; both
 * validate the whole environment, so a bad value is reported whichever part of nlq reads it.
 */

const modelReferencePattern = /^[a-z][a-z0-9-]*:.+$/;
const modelExpectation = "provider:model, e.g. openai:gpt-4o-mini or scripted:fixtures/demo-model.json";

/** `provider:model` (checked against the providers when the model is resolved). */
export const modelReferenceVariable = parsedVariable(modelExpectation, (text) =>
  modelReferencePattern.test(text) ? text : undefined,
);

/** `NLQ_PRESET`: a built-in preset name or a preset JSON file; unset → `balanced`. */
function presetVariable() {
  return z
    .string()
    .transform((text, context): Preset => {
      try {
        return resolvePreset(text);
      } catch (error) {
        const expected = `must be ${builtInPresetNames.join(", ")} or a preset .json file`;
        // An unknown name says no more than the expectation; a preset file says what is wrong with it.
        const message = text.trim().endsWith(".json")
          ? `${expected}: ${(error as Error).message}`
          : `${expected}, got ${quotedValue(text.trim())}`;
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
    })
    .optional()
    .transform((value) => value ?? resolvePreset(defaultPresetName));
}

const functionNamePattern = /^([a-z_][a-z0-9_$]*\.)?[a-z_][a-z0-9_$]*$/;

/** The variables of the question pipeline (`Settings`). */
const pipelineVariables = {
  NLQ_MODEL: modelReferenceVariable.optional(),
  NLQ_OPENAI_COMPATIBLE_URL: urlVariable("an http:// or https:// URL", ["http:", "https:"]),
  NLQ_OPENAI_COMPATIBLE_API_KEY: textVariable,
  NLQ_STATEMENT_TIMEOUT_MS: wholeNumberVariable(15_000, 1),
  NLQ_ROW_LIMIT: wholeNumberVariable(1_000, 1),
  NLQ_RESULT_BYTE_LIMIT: wholeNumberVariable(16 * 1024 * 1024, 1),
  NLQ_ALLOWED_FUNCTIONS: parsedVariable("comma-separated name or schema.name entries", (text) => {
    const names = text
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "");
    return names.every((name) => functionNamePattern.test(name)) ? names : undefined;
  })
    .optional()
    .transform((value): readonly string[] => value ?? []),
  NLQ_MAX_QUESTION_LENGTH: wholeNumberVariable(DEFAULT_MAX_QUESTION_LENGTH, 1),
  NLQ_MAX_FIX_ATTEMPTS: wholeNumberVariable(3, 0),
  NLQ_UNIT_TESTS: wholeNumberVariable(5, 1),
  NLQ_PRESET: presetVariable(),
  // Unset: the preset's value.
  NLQ_MAX_LLM_CALLS: optionalWholeNumberVariable(1),
  NLQ_DEADLINE_MS: optionalWholeNumberVariable(1),
  NLQ_MAX_TOKENS: optionalWholeNumberVariable(0),
  NLQ_CONCURRENCY: optionalWholeNumberVariable(1),
  NLQ_SELECTOR: parsedVariable("a selector name, e.g. self-consistency, pairwise, unit-tests or random", (text) =>
    /^[a-z][a-z-]*$/.test(text.toLowerCase()) ? text.toLowerCase() : undefined,
  ).optional(),
  NLQ_SHUTDOWN_GRACE_MS: wholeNumberVariable(10_000, 0),
  NLQ_TEMPERATURE: decimalVariable(0, 0, 2),
  NLQ_ASK_WHEN_SUPPORT_BELOW: decimalVariable(0.5, 0, 1),
  NLQ_TRACE_CONTENT: switchVariable(false),
  NLQ_EMBEDDING_MODEL: parsedVariable(
    `builtin or provider:model with provider ${embeddingProviders.join(", ")}`,
    (text) => {
      if (text === "builtin" || text === "builtin:offline") return text;
      const separator = text.indexOf(":");
      const provider = text.slice(0, separator);
      return separator > 0 && separator < text.length - 1 && embeddingProviders.includes(provider) ? text : undefined;
    },
  ).optional(),
  NLQ_SCHEMA_SELECTION: parsedVariable(
    `a preset (${Object.keys(schemaSelectionPresets).join(", ")}) or a comma list of steps (${schemaSelectionStepNames.join(", ")})`,
    (text): SchemaSelectionSteps | undefined => {
      try {
        return schemaSelectionStepsFrom(text);
      } catch {
        return undefined;
      }
    },
  ).optional(),
  NLQ_SCHEMA_SELECTION_MIN_COLUMNS: wholeNumberVariable(200, 0),
  NLQ_LEARNED_RETRIEVAL: switchVariable(true),
};

const postgresUrl = urlVariable("a postgres:// or postgresql:// URL", ["postgres:", "postgresql:"]);

/** The variables of the servers and commands (`ServiceSettings`). */
const serviceVariables = {
  DATABASE_URL: textVariable,
  NLQ_DEMO_URL: textVariable,
  NLQ_HOME: textVariable,
  NLQ_METADATA_URL: postgresUrl,
  NLQ_MIGRATIONS_DIR: textVariable,
  NLQ_QDRANT_URL: urlVariable("an http:// or https:// URL", ["http:", "https:"]),
  NLQ_QDRANT_API_KEY: textVariable,
  NLQ_QDRANT_COLLECTION_PREFIX: textVariable,
  NLQ_WEB_POOL_SIZE: wholeNumberVariable(10, 1),
  NLQ_WEB_SINGLE_USER: switchVariable(false),
  NLQ_WEB_SESSION_IDLE_MINUTES: wholeNumberVariable(30, 1),
  NLQ_WEB_EXAMPLE_ADMIN_ROLE: textVariable.transform((value) => value ?? "nlq_example_admin"),
  NLQ_PROXY_HOST: textVariable.transform((value) => value ?? "127.0.0.1"),
  NLQ_PROXY_PORT: portVariable(6_432),
  NLQ_WEB_PORT: portVariable(3_000),
  NLQ_EMBEDDED_PORT: portVariable(54_320),
  NLQ_METRICS_HOST: textVariable.transform((value) => value ?? "127.0.0.1"),
  NLQ_METRICS_PORT: optionalPortVariable,
  NLQ_MAX_CONNECTIONS: wholeNumberVariable(1_000, 1),
  NLQ_MAX_CONCURRENT_QUESTIONS: wholeNumberVariable(64, 1),
  NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE: wholeNumberVariable(16, 1),
  NLQ_NATIVE_RELAY: switchVariable(true),
  NLQ_TLS_CERT: textVariable,
  NLQ_TLS_KEY: textVariable,
  NLQ_TLS_REQUIRED: switchVariable(false),
  NLQ_TLS_HANDSHAKE_TIMEOUT_MS: wholeNumberVariable(10_000, 1),
  NLQ_CLIENT_LOGIN_TIMEOUT_MS: wholeNumberVariable(60_000, 1),
  NLQ_AUTH_QUERY_URL: postgresUrl,
  NLQ_AUTH_QUERY: textVariable.transform(
    (value) => value ?? "SELECT usename, passwd FROM pg_shadow WHERE usename = $1",
  ),
};

export const environmentSchema = z.object({ ...pipelineVariables, ...serviceVariables });

/** Every variable, validated and defaulted, plus `NLQ_MODEL_<STEP>` overrides keyed by step suffix (`fix-candidate`). */
export type ParsedEnvironment = z.output<typeof environmentSchema> & {
  readonly stepModels: Readonly<Record<string, string>>;
};

/** The lower-case suffixes (`generate`, `fix-candidate`, …) that `NLQ_MODEL_<SUFFIX>` may carry. */
const stepVariableSuffixes: ReadonlySet<string> = new Set(
  stepNames.flatMap((step) =>
    stepVariableNames(step).map((variable) => variable.slice("NLQ_MODEL_".length).toLowerCase().replaceAll("_", "-")),
  ),
);

const knownVariables: ReadonlySet<string> = new Set(Object.keys(environmentSchema.shape));

/**
 * Every variable nlq reads through this schema: the schema's keys and each step's `NLQ_MODEL_<STEP>` (its canonical
 * name, not the aliases). docker-compose.yml passes each of them (checked by a test).
 */
export function configurationVariableNames(): string[] {
  return [...knownVariables, ...stepNames.map((step) => stepVariableNames(step)[0]!)];
}

/**
 * Validates the environment against the schema. Empty (or blank) values count as unset; unknown `NLQ_*` variables
 * are ignored, except an `NLQ_MODEL_<STEP>` naming no step. Throws one `ConfigurationError` naming every bad variable,
 * e.g. `invalid nlq configuration: NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"`.
 */
export function parseEnvironment(environment: Readonly<Record<string, string | undefined>>): ParsedEnvironment {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if ((name.startsWith("NLQ_") || knownVariables.has(name)) && value !== undefined && value.trim() !== "")
      present[name] = value;
  }
  const parsed = environmentSchema.safeParse(present);
  const problems: string[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  const stepModels: Record<string, string> = {};
  for (const [name, value] of Object.entries(present)) {
    if (!name.startsWith("NLQ_MODEL_")) continue;
    const step = name.slice("NLQ_MODEL_".length).toLowerCase().replaceAll("_", "-");
    if (!stepVariableSuffixes.has(step)) {
      problems.push(`${name}: no pipeline step is called that; use one of ${[...stepVariableSuffixes].join(", ")}`);
      continue;
    }
    const reference = modelReferenceVariable.safeParse(value);
    if (reference.success) stepModels[step] = reference.data;
    else problems.push(`${name} ${reference.error.issues[0]?.message ?? "is invalid"}`);
  }
  if (!parsed.success || problems.length > 0) {
    throw new ConfigurationError(`invalid nlq configuration: ${problems.join("; ")}`);
  }
  return { ...parsed.data, stepModels };
}
