import { describe, expect, it } from "vitest";
import { loadSettings, modelReferenceForStep } from "../config/settings";
import { ConfigurationError } from "../errors/configuration-error";
import { isStepName, pipelineSteps, stepNames, stepVariableNames } from "./step-registry";

describe("step registry", () => {
  it("names every language-model step once, each with a label and the paper component it implements", () => {
    expect(stepNames).toEqual([
      "extract-keywords",
      "hallucinate-schema",
      "filter-column",
      "select-tables",
      "select-columns",
      "find-readings",
      "generate-candidate",
      "generate-divide-and-conquer",
      "generate-query-plan",
      "synthesize-examples",
      "generate-from-examples",
      "fix-candidate",
      "select-candidate",
      "generate-unit-tests",
      "evaluate-unit-tests",
      "summarize-answer",
    ]);
    for (const step of stepNames) {
      expect(pipelineSteps[step].label.length).toBeGreaterThan(0);
      expect(pipelineSteps[step].paper.length).toBeGreaterThan(0);
    }
    expect(isStepName("generate-candidate")).toBe(true);
    expect(isStepName("toString")).toBe(false);
  });

  it("derives the NLQ_MODEL_<STEP> variables of a step, most specific first", () => {
    expect(stepVariableNames("generate-candidate")).toEqual(["NLQ_MODEL_GENERATE_CANDIDATE", "NLQ_MODEL_GENERATE"]);
    expect(stepVariableNames("synthesize-examples")).toEqual(["NLQ_MODEL_SYNTHESIZE_EXAMPLES", "NLQ_MODEL_GENERATE"]);
    const generating = loadSettings({ NLQ_MODEL: "openai:a", NLQ_MODEL_GENERATE: "openai:g" });
    for (const step of [
      "generate-candidate",
      "generate-divide-and-conquer",
      "generate-query-plan",
      "synthesize-examples",
      "generate-from-examples",
    ] as const) {
      expect(modelReferenceForStep(generating, step)).toBe("openai:g");
    }
    const settings = loadSettings({ NLQ_MODEL: "openai:a", NLQ_MODEL_SELECT: "openai:b" });
    expect(modelReferenceForStep(settings, "select-tables")).toBe("openai:b");
    expect(modelReferenceForStep(settings, "select-columns")).toBe("openai:b");
    expect(modelReferenceForStep(settings, "filter-column")).toBe("openai:a");
    const selection = loadSettings({ NLQ_MODEL: "openai:a", NLQ_MODEL_SELECTION: "openai:c" });
    for (const step of ["select-candidate", "generate-unit-tests", "evaluate-unit-tests"] as const)
      expect(modelReferenceForStep(selection, step)).toBe("openai:c");
  });

  it("refuses an NLQ_MODEL_<STEP> that names no step, listing the valid ones", () => {
    expect(() => loadSettings({ NLQ_MODEL_GENERATOR: "openai:gpt-4o" })).toThrow(ConfigurationError);
    expect(() => loadSettings({ NLQ_MODEL_GENERATOR: "openai:gpt-4o" })).toThrow(
      /NLQ_MODEL_GENERATOR: no pipeline step is called that; use one of extract-keywords, keywords,/,
    );
  });
});
