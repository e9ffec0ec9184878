import { ConfigurationError } from "../errors/configuration-error";

/** The switchable steps of the CHESS schema selector. */
export interface SchemaSelectionSteps {
  /** extract_keywords by a model (step `extract-keywords`); off → keywords by `heuristicKeywords`. */
  readonly extractKeywords: boolean;
  /** filter_column, batched (step `filter-column`, meant for a cheap model). */
  readonly filterColumn: boolean;
  /** select_tables (step `select-tables`). */
  readonly selectTables: boolean;
  /** select_columns (step `select-columns`). */
  readonly selectColumns: boolean;
}

/**
 * Presets: `fast` skips filter_column (the most calls at warehouse scale) and keeps select_tables/select_columns;
 * `balanced` and `max` run all four steps (CHESS's full IR + SS); `none` runs no model (retrieval only).
 */
export const schemaSelectionPresets: Readonly<Record<"none" | "fast" | "balanced" | "max", SchemaSelectionSteps>> = {
  none: { extractKeywords: false, filterColumn: false, selectTables: false, selectColumns: false },
  fast: { extractKeywords: true, filterColumn: false, selectTables: true, selectColumns: true },
  balanced: { extractKeywords: true, filterColumn: true, selectTables: true, selectColumns: true },
  max: { extractKeywords: true, filterColumn: true, selectTables: true, selectColumns: true },
};

const stepNames: Record<string, keyof SchemaSelectionSteps> = {
  "extract-keywords": "extractKeywords",
  "filter-column": "filterColumn",
  "select-tables": "selectTables",
  "select-columns": "selectColumns",
};

/**
 * Steps from configuration: `NLQ_SCHEMA_SELECTION` is a preset name (`none`, `fast`, `balanced`, `max`) or a comma
 * list of step names (`extract-keywords,select-tables`). Default (unset): `balanced`. An unknown name is a
 * `ConfigurationError` (a typo must not silently switch steps off).
 */
export function schemaSelectionStepsFrom(value: string | undefined): SchemaSelectionSteps {
  const trimmed = value?.trim().toLowerCase() ?? "";
  if (trimmed === "") return schemaSelectionPresets.balanced;
  if (trimmed in schemaSelectionPresets) return schemaSelectionPresets[trimmed as keyof typeof schemaSelectionPresets];
  const steps = { ...schemaSelectionPresets.none } as Record<keyof SchemaSelectionSteps, boolean>;
  for (const name of trimmed.split(",")) {
    const step = stepNames[name.trim()];
    if (!step) {
      throw new ConfigurationError(
        `NLQ_SCHEMA_SELECTION: unknown preset or step "${name.trim()}" (presets: ${Object.keys(schemaSelectionPresets).join(", ")}; steps: ${Object.keys(stepNames).join(", ")})`,
      );
    }
    steps[step] = true;
  }
  return steps;
}

/** The step names `NLQ_SCHEMA_SELECTION` may list. */
export const schemaSelectionStepNames: readonly string[] = Object.keys(stepNames);
