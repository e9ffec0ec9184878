/**
 * The one list of the pipeline's language-model steps. A step's name is the key of its scripted responses, of its
 * `NLQ_MODEL_<STEP>` override and of its calls in the trace; settings, the model resolver and every progress renderer
 * read names, aliases and labels from here. A new step is added here first, and `StepName` makes every other use
 * checked by the compiler.
 */
export const pipelineSteps = {
  "extract-keywords": {
    paper: "CHESS IR extract_keywords",
    label: "Extracting keywords",
    variableAliases: ["KEYWORDS"],
  },
  "hallucinate-schema": {
    paper: "CRUSH4SQL schema hallucination",
    label: "Hallucinating a minimal schema",
    variableAliases: ["HALLUCINATE"],
  },
  "filter-column": {
    paper: "CHESS SS filter_column",
    label: "Filtering columns",
    variableAliases: ["FILTER"],
  },
  "select-tables": {
    paper: "CHESS SS select_tables",
    label: "Selecting tables",
    variableAliases: ["SELECT"],
  },
  "select-columns": {
    paper: "CHESS SS select_columns",
    label: "Selecting columns",
    variableAliases: ["SELECT"],
  },
  "find-readings": {
    paper:
      "nlq's reading step: phrases the schema's names cannot relate, flagged by the model (after AmbiQT); not in CHESS or CHASE-SQL",
    label: "Looking for other readings of the question",
    variableAliases: ["READINGS"],
  },
  "generate-candidate": {
    paper: "CHESS CG / CHASE-SQL generators",
    label: "Writing SQL",
    variableAliases: ["GENERATE"],
  },
  "generate-divide-and-conquer": {
    paper: "CHASE-SQL divide-and-conquer CoT generator",
    label: "Writing SQL by divide and conquer",
    variableAliases: ["GENERATE"],
  },
  "generate-query-plan": {
    paper: "CHASE-SQL query-plan CoT generator",
    label: "Writing SQL from a query plan",
    variableAliases: ["GENERATE"],
  },
  "synthesize-examples": {
    paper: "CHASE-SQL online synthetic example generation",
    label: "Synthesizing example queries",
    variableAliases: ["GENERATE"],
  },
  "generate-from-examples": {
    paper: "CHASE-SQL online synthetic example generation",
    label: "Writing SQL from the examples",
    variableAliases: ["GENERATE"],
  },
  "fix-candidate": {
    paper: "CHASE-SQL query fixer / CHESS revise",
    label: "Revising SQL",
    variableAliases: ["FIX"],
  },
  "select-candidate": {
    paper: "CHASE-SQL selection agent",
    label: "Choosing between candidates",
    variableAliases: ["SELECTION"],
  },
  "generate-unit-tests": {
    paper: "CHESS UT generate_unit_tests",
    label: "Writing unit tests for the candidates",
    variableAliases: ["SELECTION"],
  },
  "evaluate-unit-tests": {
    paper: "CHESS UT evaluate",
    label: "Testing the candidates",
    variableAliases: ["SELECTION"],
  },
  "summarize-answer": {
    paper: "nlq: a one-sentence plain-language answer (issue 11); not from a paper",
    label: "Summarizing the answer",
    variableAliases: ["SUMMARIZE"],
  },
} as const satisfies Record<string, StepDefinition>;

export interface StepDefinition {
  /** Which paper component the step implements. */
  readonly paper: string;
  /** What a person sees while the step runs. */
  readonly label: string;
  /** Short `NLQ_MODEL_<ALIAS>` names that also configure the step (besides `NLQ_MODEL_<FULL_NAME>`). */
  readonly variableAliases: readonly string[];
}

export type StepName = keyof typeof pipelineSteps;

export const stepNames = Object.keys(pipelineSteps) as StepName[];

export function isStepName(name: string): name is StepName {
  return Object.hasOwn(pipelineSteps, name);
}

/** `NLQ_MODEL_GENERATE_CANDIDATE` for `generate-candidate`. */
export function stepVariableName(step: StepName): string {
  return `NLQ_MODEL_${step.toUpperCase().replaceAll("-", "_")}`;
}

/** The `NLQ_MODEL_*` variable names that configure a step, most specific first. */
export function stepVariableNames(step: StepName): string[] {
  return [stepVariableName(step), ...pipelineSteps[step].variableAliases.map((alias) => `NLQ_MODEL_${alias}`)];
}
