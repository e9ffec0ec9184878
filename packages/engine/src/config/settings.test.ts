import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error";
import { configurationVariableNames, parseEnvironment } from "./environment-schema";
import { builtInPresets } from "./presets";
import { schemaSelectionPresets } from "./schema-selection-steps";
import { loadSettings, modelReferenceForStep } from "./settings";
import { wholeNumberVariable } from "./variable-schemas";

describe("loadSettings", () => {
  it("applies defaults to an empty environment", () => {
    expect(loadSettings({})).toEqual({
      model: undefined,
      stepModels: {},
      openAiCompatibleUrl: undefined,
      openAiCompatibleApiKey: undefined,
      statementTimeoutMilliseconds: 15_000,
      rowLimit: 1_000,
      resultByteLimit: 16_777_216,
      allowedFunctions: [],
      trustedOwners: [],
      maxQuestionLength: 4_000,
      maxFixAttempts: 3,
      preset: builtInPresets.balanced,
      generators: builtInPresets.balanced.generators,
      selector: "self-consistency",
      concurrency: 3,
      crush: true,
      summarizeAnswer: true,
      readings: true,
      unitTestCount: 5,
      temperature: 0,
      askWhenSupportBelow: 0.5,
      traceContent: false,
      maxLlmCalls: 24,
      deadlineMilliseconds: 120_000,
      maxTokens: 0,
      embeddingModel: undefined,
      schemaSelection: schemaSelectionPresets.balanced,
      schemaSelectionMinimumColumns: 200,
      learnedRetrieval: true,
      knowledgeLimit: 8,
    });
  });

  it("reads every variable", () => {
    const settings = loadSettings({
      NLQ_MODEL: "openai:gpt-4o-mini",
      NLQ_MODEL_FIX: "ollama:qwen2.5-coder:7b",
      NLQ_OPENAI_COMPATIBLE_URL: "http://localhost:8080/v1",
      NLQ_OPENAI_COMPATIBLE_API_KEY: "secret",
      NLQ_STATEMENT_TIMEOUT_MS: "500",
      NLQ_ROW_LIMIT: "10",
      NLQ_RESULT_BYTE_LIMIT: "4096",
      NLQ_ALLOWED_FUNCTIONS: "slugify, Reports.Fiscal_Year",
      NLQ_TRUSTED_OWNERS: " app_owner, Reporting ",
      NLQ_MAX_FIX_ATTEMPTS: "0",
      NLQ_UNIT_TESTS: "10",
      NLQ_MAX_QUESTION_LENGTH: "200",
      NLQ_TEMPERATURE: "0.7",
      NLQ_MAX_LLM_CALLS: "5",
      NLQ_DEADLINE_MS: "1000",
      NLQ_MAX_TOKENS: "5000",
      NLQ_EMBEDDING_MODEL: "ollama:nomic-embed-text",
      NLQ_SCHEMA_SELECTION: "fast",
      NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0",
      NLQ_LEARNED_RETRIEVAL: "Off",
      NLQ_KNOWLEDGE_LIMIT: "3",
      NLQ_PRESET: "max",
      NLQ_SELECTOR: "unit-tests",
      NLQ_CONCURRENCY: "2",
      PATH: "/bin",
    });
    expect(settings).toMatchObject({
      model: "openai:gpt-4o-mini",
      stepModels: { fix: "ollama:qwen2.5-coder:7b" },
      openAiCompatibleUrl: "http://localhost:8080/v1",
      openAiCompatibleApiKey: "secret",
      statementTimeoutMilliseconds: 500,
      rowLimit: 10,
      resultByteLimit: 4096,
      allowedFunctions: ["slugify", "reports.fiscal_year"],
      trustedOwners: ["app_owner", "Reporting"],
      maxFixAttempts: 0,
      unitTestCount: 10,
      maxQuestionLength: 200,
      temperature: 0.7,
      maxLlmCalls: 5,
      deadlineMilliseconds: 1000,
      maxTokens: 5000,
      embeddingModel: "ollama:nomic-embed-text",
      schemaSelection: schemaSelectionPresets.fast,
      schemaSelectionMinimumColumns: 0,
      learnedRetrieval: false,
      knowledgeLimit: 3,
      preset: builtInPresets.max,
      generators: builtInPresets.max.generators,
      selector: "unit-tests",
      concurrency: 2,
    });
  });

  it("refuses a question length limit that is not a whole number ≥ 1", () => {
    expect(() => loadSettings({ NLQ_MAX_QUESTION_LENGTH: "0" })).toThrow(
      'NLQ_MAX_QUESTION_LENGTH must be a whole number ≥ 1, got "0"',
    );
    expect(() => loadSettings({ NLQ_MAX_QUESTION_LENGTH: "4k" })).toThrow(/NLQ_MAX_QUESTION_LENGTH/);
  });

  it("refuses a zero byte limit and malformed function names", () => {
    expect(() => loadSettings({ NLQ_RESULT_BYTE_LIMIT: "0" })).toThrow(/NLQ_RESULT_BYTE_LIMIT/);
    expect(() => loadSettings({ NLQ_ALLOWED_FUNCTIONS: "ok, drop table x" })).toThrow(/NLQ_ALLOWED_FUNCTIONS/);
    expect(() => loadSettings({ NLQ_TRUSTED_OWNERS: 'ok, "quoted"' })).toThrow(/NLQ_TRUSTED_OWNERS/);
  });

  it("treats empty strings as unset", () => {
    expect(loadSettings({ NLQ_MODEL: "", NLQ_ROW_LIMIT: " " }).rowLimit).toBe(1_000);
  });

  it("names every invalid variable in one ConfigurationError", () => {
    const attempt = () =>
      loadSettings({ NLQ_MODEL: "gpt-4o", NLQ_ROW_LIMIT: "many", NLQ_TEMPERATURE: "9", NLQ_MODEL_FIX: "nope" });
    expect(attempt).toThrow(ConfigurationError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["NLQ_MODEL", "NLQ_ROW_LIMIT", "NLQ_TEMPERATURE", "NLQ_MODEL_FIX"])
        expect(message).toContain(name);
      expect((error as ConfigurationError).code).toBe("F0000");
    }
  });
});

describe("validation of each variable", () => {
  const refusals: ReadonlyArray<[Record<string, string>, string]> = [
    [{ NLQ_ROW_LIMIT: "many" }, 'NLQ_ROW_LIMIT must be a whole number ≥ 1, got "many"'],
    [{ NLQ_TEMPERATURE: "9" }, 'NLQ_TEMPERATURE must be a number from 0 to 2, got "9"'],
    [
      { NLQ_OPENAI_COMPATIBLE_URL: "localhost:8080" },
      'NLQ_OPENAI_COMPATIBLE_URL must be an http:// or https:// URL, got "localhost:8080"',
    ],
    [
      { NLQ_EMBEDDING_MODEL: "acme:embedder" },
      'NLQ_EMBEDDING_MODEL must be builtin or provider:model with provider builtin, openai, google, ollama, openai-compatible, got "acme:embedder"',
    ],
    [{ NLQ_EMBEDDING_MODEL: "text-embedding-3-small" }, "NLQ_EMBEDDING_MODEL must be builtin or provider:model"],
    [
      { NLQ_SCHEMA_SELECTION: "balancd" },
      'NLQ_SCHEMA_SELECTION must be a preset (none, fast, balanced, max) or a comma list of steps (extract-keywords, filter-column, select-tables, select-columns), got "balancd"',
    ],
    [
      { NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "-1" },
      'NLQ_SCHEMA_SELECTION_MIN_COLUMNS must be a whole number ≥ 0, got "-1"',
    ],
    [{ NLQ_LEARNED_RETRIEVAL: "disabled" }, 'NLQ_LEARNED_RETRIEVAL must be on or off, got "disabled"'],
  ];
  it.each(refusals)("refuses %j with a message naming the variable and the value", (environment, message) => {
    expect(() => loadSettings(environment)).toThrow(ConfigurationError);
    expect(() => loadSettings(environment)).toThrow(message);
  });

  it("quotes only a short prefix of a long bad value", () => {
    const attempt = () => loadSettings({ NLQ_ROW_LIMIT: "x".repeat(5_000) });
    expect(attempt).toThrow(`got "${"x".repeat(40)}…"`);
    expect(() => attempt()).not.toThrow("x".repeat(41));
  });

  it("reads the schema-selection step list and every spelling of the learnt-retrieval switch", () => {
    expect(loadSettings({ NLQ_SCHEMA_SELECTION: "extract-keywords, select-tables" }).schemaSelection).toEqual({
      extractKeywords: true,
      filterColumn: false,
      selectTables: true,
      selectColumns: false,
    });
    for (const [text, value] of [
      ["on", true],
      ["TRUE", true],
      ["1", true],
      ["no", false],
      ["0", false],
    ] as const)
      expect(loadSettings({ NLQ_LEARNED_RETRIEVAL: text }).learnedRetrieval).toBe(value);
  });

  it("checks a process's own variables with the pipeline's in one pass, and ignores them otherwise", () => {
    const processVariables = { NLQ_WEB_POOL_SIZE: wholeNumberVariable(10, 1) };
    expect(() => parseEnvironment({ NLQ_WEB_POOL_SIZE: "abc", NLQ_ROW_LIMIT: "x" }, processVariables)).toThrow(
      /NLQ_ROW_LIMIT must be a whole number ≥ 1, got "x"; NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"/,
    );
    expect(parseEnvironment({ NLQ_WEB_POOL_SIZE: "3" }, processVariables).NLQ_WEB_POOL_SIZE).toBe(3);
    expect(loadSettings({ NLQ_WEB_POOL_SIZE: "abc" }).rowLimit).toBe(1_000);
    expect(configurationVariableNames()).not.toContain("NLQ_WEB_POOL_SIZE");
  });
});

describe("modelReferenceForStep", () => {
  it("prefers the full step name, then the alias, then NLQ_MODEL", () => {
    const settings = loadSettings({
      NLQ_MODEL: "openai:gpt-4o-mini",
      NLQ_MODEL_GENERATE: "anthropic:claude-sonnet-4-5",
      NLQ_MODEL_GENERATE_CANDIDATE: "google:gemini-2.5-pro",
      NLQ_MODEL_FIX: "openai:gpt-4o",
    });
    expect(modelReferenceForStep(settings, "generate-candidate")).toBe("google:gemini-2.5-pro");
    expect(modelReferenceForStep(settings, "fix-candidate")).toBe("openai:gpt-4o");
    expect(modelReferenceForStep(settings, "extract-keywords")).toBe("openai:gpt-4o-mini");
    expect(modelReferenceForStep(loadSettings({}), "fix-candidate")).toBeUndefined();
  });
});
