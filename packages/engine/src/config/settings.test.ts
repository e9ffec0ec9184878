import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors";
import { loadSettings, modelReferenceForStep } from "./settings";

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
      maxFixAttempts: 3,
      temperature: 0,
      maxLlmCalls: 20,
      deadlineMilliseconds: 120_000,
      maxTokens: 0,
      shutdownGraceMilliseconds: 10_000,
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
      NLQ_MAX_FIX_ATTEMPTS: "0",
      NLQ_TEMPERATURE: "0.7",
      NLQ_MAX_LLM_CALLS: "5",
      NLQ_DEADLINE_MS: "1000",
      NLQ_MAX_TOKENS: "5000",
      NLQ_SHUTDOWN_GRACE_MS: "250",
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
      maxFixAttempts: 0,
      temperature: 0.7,
      maxLlmCalls: 5,
      deadlineMilliseconds: 1000,
      maxTokens: 5000,
      shutdownGraceMilliseconds: 250,
    });
  });

  it("refuses a zero byte limit and malformed function names", () => {
    expect(() => loadSettings({ NLQ_RESULT_BYTE_LIMIT: "0" })).toThrow(/NLQ_RESULT_BYTE_LIMIT/);
    expect(() => loadSettings({ NLQ_ALLOWED_FUNCTIONS: "ok, drop table x" })).toThrow(/NLQ_ALLOWED_FUNCTIONS/);
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
