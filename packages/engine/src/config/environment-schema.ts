import { z } from "zod";
import { builtinEmbeddingReferences, embeddingProviders } from "../embedding/resolve-embedding-model";
import { ConfigurationError } from "../errors/configuration-error";
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
  optionalWholeNumberVariable,
  parsedVariable,
  quotedValue,
  switchVariable,
  textVariable,
  urlVariable,
  wholeNumberVariable,
} from "./variable-schemas";

/** Default of `NLQ_MAX_QUESTION_LENGTH`: the longest question nlq accepts, in characters (proxy, CLI and web alike). */
export const DEFAULT_MAX_QUESTION_LENGTH = 4_000;

const modelReferencePattern = /^[a-z][a-z0-9-]*:.+$/;
const modelExpectation = "provider:model, e.g. openai:gpt-4o-mini or scripted:fixtures/demo-model.json";

/** `provider:model` (checked against the providers when the model is resolved). */
const modelReferenceVariable = parsedVariable(modelExpectation, (text) =>
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
  NLQ_TRUSTED_OWNERS: parsedVariable("comma-separated PostgreSQL role names", (text) => {
    const names = text
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    return names.every((name) => name.length <= 63 && !/[\0"]/.test(name)) ? names : undefined;
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
  NLQ_TEMPERATURE: decimalVariable(0, 0, 2),
  NLQ_ASK_WHEN_SUPPORT_BELOW: decimalVariable(0.5, 0, 1),
  NLQ_TRACE_CONTENT: switchVariable(false),
  NLQ_EMBEDDING_MODEL: parsedVariable(
    `builtin or provider:model with provider ${embeddingProviders.join(", ")}`,
    (text) => {
      if (builtinEmbeddingReferences.includes(text)) return text;
      const separator = text.indexOf(":");
      const provider = text.slice(0, separator);
      return separator > 0 && separator < text.length - 1 && embeddingProviders.includes(provider) ? text : undefined;
    },
  ).optional(),
  NLQ_EMBEDDING_CACHE_DIR: textVariable,
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
  NLQ_KNOWLEDGE_LIMIT: wholeNumberVariable(8, 0),
};

/**
 * The schema of the pipeline's configuration: every `NLQ_*` variable `Settings` reads, with its default and its check.
 * The processes extend it with their own variables (`@nlq/adapters`' `serviceVariables`, `@nlq/proxy`'s
 * `proxyVariables`, the web app's `webVariables`): `parseEnvironment(environment, variables)` checks both in one pass,
 * so one error names every bad variable a process reads.
 */
export const environmentSchema = z.object(pipelineVariables);

/** The variables a process reads besides the pipeline's, as zod fields (the builders of `variable-schemas.ts`). */
export type EnvironmentVariables = z.ZodRawShape;

/**
 * Every pipeline variable (and the `variables` a process added), validated and defaulted, plus `NLQ_MODEL_<STEP>`
 * overrides keyed by step suffix (`fix-candidate`).
 */
export type ParsedEnvironment<Variables extends EnvironmentVariables = Record<never, never>> = z.output<
  typeof environmentSchema
> &
  z.output<z.ZodObject<Variables>> & {
    readonly stepModels: Readonly<Record<string, string>>;
  };

/** The lower-case suffixes (`generate`, `fix-candidate`, …) that `NLQ_MODEL_<SUFFIX>` may carry. */
const stepVariableSuffixes: ReadonlySet<string> = new Set(
  stepNames.flatMap((step) =>
    stepVariableNames(step).map((variable) => variable.slice("NLQ_MODEL_".length).toLowerCase().replaceAll("_", "-")),
  ),
);

/**
 * Every variable the pipeline reads through this schema: the schema's keys and each step's `NLQ_MODEL_<STEP>` (its
 * canonical name, not the aliases). docker-compose.yml passes each of them and the processes' own (checked by a test).
 */
export function configurationVariableNames(): string[] {
  return [...Object.keys(environmentSchema.shape), ...stepNames.map((step) => stepVariableNames(step)[0]!)];
}

/**
 * Validates the environment against the pipeline's schema extended with a process's own `variables` (default: none).
 * Empty (or blank) values count as unset; unknown `NLQ_*` variables are ignored, except an `NLQ_MODEL_<STEP>` naming
 * no step. Throws one `ConfigurationError` naming every bad variable, e.g.
 * `invalid nlq configuration: NLQ_ROW_LIMIT must be a whole number ≥ 1, got "abc"`.
 */
export function parseEnvironment<Variables extends EnvironmentVariables = Record<never, never>>(
  environment: Readonly<Record<string, string | undefined>>,
  variables?: Variables,
): ParsedEnvironment<Variables> {
  const schema = variables === undefined ? environmentSchema : environmentSchema.extend(variables);
  const knownVariables: ReadonlySet<string> = new Set(Object.keys(schema.shape));
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if ((name.startsWith("NLQ_") || knownVariables.has(name)) && value !== undefined && value.trim() !== "")
      present[name] = value;
  }
  const parsed = schema.safeParse(present);
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
  return { ...(parsed.data as z.output<typeof environmentSchema> & z.output<z.ZodObject<Variables>>), stepModels };
}
