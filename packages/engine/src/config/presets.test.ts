import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error";
import { builtInPresets, presetSchema, resolvePreset } from "./presets";
import { schemaSelectionPresets } from "./schema-selection-steps";
import { loadSettings, modelReferenceForStep } from "./settings";

const candidatesOf = (name: keyof typeof builtInPresets) =>
  builtInPresets[name].generators.reduce((total, plan) => total + plan.samples, 0);

describe("presets", () => {
  it("every built-in preset satisfies the preset schema", () => {
    for (const preset of Object.values(builtInPresets)) expect(presetSchema.parse(preset)).toEqual(preset);
  });

  it("fast, balanced and max differ for real: candidates, generators, selector, retrieval, budgets", () => {
    expect([candidatesOf("fast"), candidatesOf("balanced"), candidatesOf("max")]).toEqual([1, 3, 10]);
    expect(builtInPresets.fast.generators.map((plan) => plan.generator)).toEqual(["one-shot"]);
    expect(builtInPresets.max.generators.map((plan) => plan.generator)).toEqual([
      "one-shot",
      "divide-and-conquer",
      "query-plan",
      "synthetic-examples",
    ]);
    expect(builtInPresets.max.selector).toBe("pairwise");
    expect(builtInPresets.fast.crush).toBe(false);
    // The plain-language sentence costs one call: balanced and max write it, fast (the fewest calls) does not.
    expect(
      [builtInPresets.fast, builtInPresets.balanced, builtInPresets.max].map((preset) => preset.summarizeAnswer),
    ).toEqual([false, true, true]);
    // The reading step shares out the candidates of presets that write several; fast writes one.
    expect([builtInPresets.fast, builtInPresets.balanced, builtInPresets.max].map((preset) => preset.readings)).toEqual(
      [false, true, true],
    );
    const { readings: _readings, ...olderFile } = builtInPresets.balanced;
    expect(presetSchema.parse(olderFile).readings).toBe(false);
    expect(builtInPresets.fast.schemaSelection).toEqual(schemaSelectionPresets.fast);
    expect(builtInPresets.fast.budget.maxLlmCalls).toBeLessThan(builtInPresets.balanced.budget.maxLlmCalls);
    expect(builtInPresets.balanced.budget.maxLlmCalls).toBeLessThan(builtInPresets.max.budget.maxLlmCalls);
  });

  it("resolves names in any case and refuses an unknown name, naming the valid ones", () => {
    expect(resolvePreset(" MAX ")).toBe(builtInPresets.max);
    expect(() => resolvePreset("maximum")).toThrow(ConfigurationError);
    expect(() => resolvePreset("maximum")).toThrow(/fast, balanced, max/);
  });

  it("reads a preset file, and names each problem of a malformed one", () => {
    const directory = mkdtempSync(join(tmpdir(), "nlq-preset-"));
    const path = join(directory, "team.json");
    const custom = {
      ...builtInPresets.fast,
      name: "team",
      generators: [{ generator: "query-plan", samples: 2, temperature: 0.4 }],
      stepModels: { "generate-candidate": "ollama:qwen2.5-coder:7b" },
    };
    writeFileSync(path, JSON.stringify(custom));
    expect(resolvePreset(path)).toEqual(custom);
    const settings = loadSettings({ NLQ_PRESET: path, NLQ_MODEL: "openai:gpt-4o-mini" });
    expect(settings.generators).toEqual(custom.generators);
    expect(modelReferenceForStep(settings, "generate-candidate")).toBe("ollama:qwen2.5-coder:7b");
    expect(modelReferenceForStep(settings, "fix-candidate")).toBe("openai:gpt-4o-mini");
    expect(
      modelReferenceForStep(
        loadSettings({ NLQ_PRESET: path, NLQ_MODEL_GENERATE: "anthropic:claude-sonnet-4-5" }),
        "generate-candidate",
      ),
    ).toBe("anthropic:claude-sonnet-4-5");

    writeFileSync(path, JSON.stringify({ ...custom, generators: [], stepModels: { "no-such-step": "a:b" } }));
    expect(() => resolvePreset(path)).toThrow(/generators: .*\n?.*stepModels/s);
    expect(() => loadSettings({ NLQ_PRESET: path })).toThrow(/NLQ_PRESET/);
  });

  it("takes budgets, selector, concurrency and schema selection from the preset unless their variables are set", () => {
    const fast = loadSettings({ NLQ_PRESET: "fast" });
    expect(fast).toMatchObject({ maxLlmCalls: 12, selector: "self-consistency", concurrency: 1, crush: false });
    expect(fast.schemaSelection).toEqual(schemaSelectionPresets.fast);
    const overridden = loadSettings({ NLQ_PRESET: "fast", NLQ_MAX_LLM_CALLS: "3", NLQ_SCHEMA_SELECTION: "none" });
    expect(overridden.maxLlmCalls).toBe(3);
    expect(overridden.schemaSelection).toEqual(schemaSelectionPresets.none);
  });

  it("switches the fixer off when the preset says so", () => {
    const directory = mkdtempSync(join(tmpdir(), "nlq-preset-"));
    const path = join(directory, "no-fix.json");
    writeFileSync(path, JSON.stringify({ ...builtInPresets.fast, name: "no-fix", fix: false }));
    expect(loadSettings({ NLQ_PRESET: path }).maxFixAttempts).toBe(0);
  });
});
