import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error";
import { stepNames } from "../steps/step-registry";
import { schemaSelectionPresets } from "./schema-selection-steps";

/**
 * A preset is data: which stages run and how hard each works. `NLQ_PRESET` (or `nlq ask --preset`, or the web API's
 * per-request `preset`) names a built-in preset or a JSON file with this shape; explicit variables
 * (`NLQ_SCHEMA_SELECTION`, `NLQ_MAX_LLM_CALLS`, `NLQ_MAX_TOKENS`, `NLQ_DEADLINE_MS`, `NLQ_SELECTOR`,
 * `NLQ_CONCURRENCY`, `NLQ_MODEL_<STEP>`) override what the preset says.
 */

const schemaSelectionStepsSchema = z.object({
  extractKeywords: z.boolean(),
  filterColumn: z.boolean(),
  selectTables: z.boolean(),
  selectColumns: z.boolean(),
});

/** How many candidates one generator writes, and how hot. */
const generatorPlanSchema = z.object({
  /** A generator of `generator-registry.ts` (`one-shot`, `divide-and-conquer`, `query-plan`, `synthetic-examples`). */
  generator: z.string().min(1),
  /** Candidates it writes per question; sample n sees the schema's tables in its own shuffled order (0: as is). */
  samples: z.number().int().min(1).max(32),
  /** Sampling temperature of its samples, 0–2. */
  temperature: z.number().min(0).max(2),
});

export const presetSchema = z.object({
  name: z.string().min(1),
  /** One line a person reads in `nlq --help` and the web app. */
  description: z.string(),
  /** CHESS schema-selection steps on catalogs above `NLQ_SCHEMA_SELECTION_MIN_COLUMNS`. */
  schemaSelection: schemaSelectionStepsSchema,
  /** CRUSH4SQL's collective retrieval ahead of the CHESS selector on large indexed catalogs. */
  crush: z.boolean(),
  /** Candidate generators and their samples, in the order their candidates are numbered. */
  generators: z.array(generatorPlanSchema).min(1),
  /** Whether the fixer revises candidates that fail or return nothing (β = `NLQ_MAX_FIX_ATTEMPTS`). */
  fix: z.boolean(),
  /**
   * How the answer is chosen when candidates disagree: a selector of `selector-registry.ts` (`self-consistency`,
   * `pairwise`, `unit-tests`, `random`).
   */
  selector: z.string().min(1),
  /**
   * Whether the `summarize-answer` step writes a one-sentence plain-language answer after selection (one more model
   * call per answered question). A preset file written before the step existed leaves it off.
   */
  summarizeAnswer: z.boolean().default(false),
  /**
   * Whether the reading step runs (`readings/plan-readings.ts`): a phrase the schema shows several meanings for gets
   * one reading per meaning, each with its own candidates (the preset's shared out, one more per reading beyond them),
   * so that doubt shows as different results. No model call. A preset file written before the step existed leaves it
   * off.
   */
  readings: z.boolean().default(false),
  /** Most language-model calls running at once for one question. */
  concurrency: z.number().int().min(1).max(64),
  /** Per-question budgets over all stages. */
  budget: z.object({
    maxLlmCalls: z.number().int().min(1),
    /** Input + output tokens; 0 = no limit. */
    maxTokens: z.number().int().min(0),
    deadlineMilliseconds: z.number().int().min(1),
  }),
  /** Model per step (`provider:model`), below `NLQ_MODEL_<STEP>` and above `NLQ_MODEL`. */
  stepModels: z
    .record(z.string(), z.string().regex(/^[a-z][a-z0-9-]*:.+$/, "must be provider:model"))
    .refine((models) => Object.keys(models).every((step) => (stepNames as string[]).includes(step)), {
      message: `step models must name pipeline steps (${stepNames.join(", ")})`,
    }),
});

export type Preset = z.infer<typeof presetSchema>;
export type GeneratorPlan = Preset["generators"][number];

/**
 * The built-in presets.
 * - `fast`: CHESS's cheapest configuration — IR + schema selection without filter_column + one one-shot candidate at
 *   temperature 0 + the fixer; no CRUSH, nothing to select, no plain-language sentence (the fewest calls).
 * - `balanced` (default): full CHESS IR + SS, CRUSH on large catalogs, three generators (one-shot, divide-and-conquer,
 *   query plan) one candidate each, the fixer, self-consistency over execution clusters (no extra model calls), then
 *   one `summarize-answer` call for the plain-language sentence; the reading step shares the three candidates among a
 *   phrase's readings when the schema shows one in doubt, and otherwise makes one `find-readings` call for the doubt
 *   names cannot show (synonyms).
 * - `max`: CHASE-SQL — the four generators with several samples each at rising temperatures and shuffled schemas,
 *   the fixer, the pairwise selection agent over the execution clusters, the plain-language sentence, and the reading
 *   step.
 */
export const builtInPresets = {
  fast: {
    name: "fast",
    description: "one candidate (CHESS IR + SS + CG + revise); the fewest model calls",
    schemaSelection: schemaSelectionPresets.fast,
    crush: false,
    generators: [{ generator: "one-shot", samples: 1, temperature: 0 }],
    fix: true,
    selector: "self-consistency",
    summarizeAnswer: false,
    readings: false,
    concurrency: 1,
    budget: { maxLlmCalls: 12, maxTokens: 0, deadlineMilliseconds: 60_000 },
    stepModels: {},
  },
  balanced: {
    name: "balanced",
    description: "three generators, one candidate each, chosen by agreement of their results",
    schemaSelection: schemaSelectionPresets.balanced,
    crush: true,
    generators: [
      { generator: "one-shot", samples: 1, temperature: 0 },
      { generator: "divide-and-conquer", samples: 1, temperature: 0.5 },
      { generator: "query-plan", samples: 1, temperature: 0.5 },
    ],
    fix: true,
    selector: "self-consistency",
    summarizeAnswer: true,
    readings: true,
    concurrency: 3,
    budget: { maxLlmCalls: 24, maxTokens: 0, deadlineMilliseconds: 120_000 },
    stepModels: {},
  },
  max: {
    name: "max",
    description: "CHASE-SQL: four generators × several samples, the fixer and the pairwise selection agent",
    schemaSelection: schemaSelectionPresets.max,
    crush: true,
    generators: [
      { generator: "one-shot", samples: 1, temperature: 0 },
      { generator: "divide-and-conquer", samples: 3, temperature: 0.8 },
      { generator: "query-plan", samples: 3, temperature: 0.8 },
      { generator: "synthetic-examples", samples: 3, temperature: 0.8 },
    ],
    fix: true,
    selector: "pairwise",
    summarizeAnswer: true,
    readings: true,
    concurrency: 4,
    budget: { maxLlmCalls: 80, maxTokens: 0, deadlineMilliseconds: 300_000 },
    stepModels: {},
  },
} as const satisfies Record<string, Preset>;

export type BuiltInPresetName = keyof typeof builtInPresets;

export const builtInPresetNames = Object.keys(builtInPresets) as BuiltInPresetName[];

export const defaultPresetName: BuiltInPresetName = "balanced";

/**
 * The preset `reference` names: a built-in name (`fast`, `balanced`, `max`) or the path of a JSON file holding a
 * preset (relative to the current directory). Throws `ConfigurationError` naming the valid names, or the file's
 * problems.
 */
export function resolvePreset(reference: string): Preset {
  const trimmed = reference.trim();
  const lower = trimmed.toLowerCase();
  if (Object.hasOwn(builtInPresets, lower)) return builtInPresets[lower as BuiltInPresetName];
  if (!trimmed.endsWith(".json")) {
    throw new ConfigurationError(
      `unknown preset "${trimmed.slice(0, 40)}": use ${builtInPresetNames.join(", ")} or the path of a preset .json file`,
    );
  }
  const path = resolve(process.cwd(), trimmed);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(/* turbopackIgnore: true */ path, "utf8"));
  } catch (error) {
    throw new ConfigurationError(`cannot read preset file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = presetSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigurationError(
      `preset file ${path} is malformed: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}
