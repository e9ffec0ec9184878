import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-errors";
import { stepOutputSchemas } from "../../steps/step-output-schemas";
import { stepNames } from "../../steps/step-registry";
import { type CapturedRequest, captureStepRequests } from "../../testing/capture-step-requests";
import { resetDescribedOutputFallback } from "../described-output-fallback";
import { chatCompletionsProblems } from "./structured-output-rules";

// The requests nlq sends OpenAI-compatible servers for every step — Ollama (`ollama:`), vLLM and LM Studio
// (`openai-compatible:`) — checked against what they document: `response_format: json_schema` with the schema (LM
// Studio refuses `json_object`), in the keywords every grammar engine compiles; and a server that refuses
// `response_format` altogether gets the format described in the prompt.

afterEach(() => {
  resetDescribedOutputFallback();
});

function refusal(message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status: 400,
    headers: { "content-type": "application/json" },
  });
}

/** LM Studio's answer to a `response_format` it does not take (its server accepts json_schema and text only). */
function lmStudio(request: CapturedRequest): Response | undefined {
  const type = (request.body as { response_format?: { type?: string } }).response_format?.type;
  return type === undefined || type === "json_schema" || type === "text"
    ? undefined
    : refusal("'response_format.type' must be 'json_schema' or 'text'");
}

const servers = [
  { name: "Ollama", reference: "ollama:qwen2.5-coder:7b", url: undefined, base: "http://127.0.0.1:11434/v1" },
  {
    name: "vLLM",
    reference: "openai-compatible:Qwen/Qwen2.5-Coder-7B",
    url: "http://vllm:8000/v1",
    base: "http://vllm:8000/v1",
  },
  {
    name: "LM Studio",
    reference: "openai-compatible:qwen2.5-coder-7b",
    url: "http://lmstudio:1234/v1",
    base: "http://lmstudio:1234/v1",
  },
];

describe.each(servers)("$name contract", ({ name, reference, url, base }) => {
  it("sends every step one json_schema request the server accepts, and its reply parses", async () => {
    const captured = await captureStepRequests({
      reference,
      openAiCompatibleUrl: url,
      respond: name === "LM Studio" ? lmStudio : undefined,
    });
    for (const step of stepNames) {
      const result = captured.get(step)!;
      expect(result.error, step).toBeUndefined();
      expect(result.requests, step).toHaveLength(1);
      expect(result.requests[0]!.url).toBe(`${base}/chat/completions`);
      expect((result.requests[0]!.body as { response_format: { type: string } }).response_format.type).toBe(
        "json_schema",
      );
      expect(chatCompletionsProblems(result.requests[0]!.body), step).toEqual([]);
      expect(stepOutputSchemas[step].safeParse(result.output).success, step).toBe(true);
    }
  });
});

describe("a server that refuses response_format", () => {
  const refusesFormat = (request: CapturedRequest) =>
    (request.body as { response_format?: unknown }).response_format === undefined
      ? undefined
      : refusal("response_format is not supported");

  it("is asked again with the format described in the prompt, then directly for later steps", async () => {
    const captured = await captureStepRequests({
      reference: "openai-compatible:old-server-model",
      openAiCompatibleUrl: "http://old-server:8080/v1",
      respond: refusesFormat,
      steps: ["select-tables", "select-candidate"],
    });
    const first = captured.get("select-tables")!;
    expect(first.error).toBeUndefined();
    expect(first.requests).toHaveLength(2);
    expect((first.requests[1]!.body as { response_format?: unknown }).response_format).toBeUndefined();
    expect(chatCompletionsProblems(first.requests[1]!.body)).toEqual([]);
    const system = (first.requests[1]!.body as { messages: Array<{ role: string; content: string }> }).messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain('"chain_of_thought_reasoning"');
    expect(first.output).toEqual({ chain_of_thought_reasoning: "x", table_names: ["x"] });
    const second = captured.get("select-candidate")!;
    expect(second.requests).toHaveLength(1);
    expect(second.output).toEqual({ reasoning: "x", answer: "A" });
  });

  it("fails the call when the described request is refused too", async () => {
    const captured = await captureStepRequests({
      reference: "openai-compatible:broken",
      openAiCompatibleUrl: "http://broken:8080/v1",
      respond: () => refusal("bad request"),
      steps: ["select-tables"],
    });
    expect(captured.get("select-tables")!.requests).toHaveLength(2);
    expect(captured.get("select-tables")!.error).toBeInstanceOf(ModelCallError);
  });
});
