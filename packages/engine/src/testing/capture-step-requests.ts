import { zodSchema } from "ai";
import type { z } from "zod";
import { runStep } from "../llm/run-step";
import { type ResolveModelOptions, resolveModel } from "../models/resolve-model";
import { stepOutputSchemas } from "../steps/step-output-schemas";
import { type StepName, stepNames } from "../steps/step-registry";

/** One HTTP request a provider client sent, as the server would receive it. */
export interface CapturedRequest {
  readonly url: string;
  readonly body: unknown;
}

/** What one step's call sent and got back. */
export interface CapturedStep {
  /** Every request the step's call made (more than one when a fallback retried). */
  readonly requests: readonly CapturedRequest[];
  /** The parsed output `runStep` returned, or the error it threw. */
  readonly output?: unknown;
  readonly error?: unknown;
}

/** A value of the right shape for a JSON schema (the first enum value, one array item, "x" strings). */
export function mechanicalValue(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object") return null;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.anyOf)) {
    const branch = node.anyOf.find((option) => (option as { type?: unknown }).type !== "null");
    return mechanicalValue(branch);
  }
  const type = Array.isArray(node.type) ? node.type.find((name) => name !== "null") : node.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries((node.properties as Record<string, unknown>) ?? {}).map(([name, value]) => [
          name,
          mechanicalValue(value),
        ]),
      );
    case "array":
      return [mechanicalValue(node.items)];
    case "boolean":
      return true;
    case "number":
    case "integer":
      return 1;
    default:
      return "x";
  }
}

/** A successful reply carrying `text`, in the response format of the API the request went to. */
function providerReply({ url, body }: CapturedRequest, text: string): Response {
  const usage = { input_tokens: 1, output_tokens: 1 };
  let payload: unknown;
  if (url.endsWith("/responses")) {
    payload = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m",
      output: [
        {
          type: "message",
          id: "msg_1",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text, annotations: [] }],
        },
      ],
      usage: { ...usage, total_tokens: 2 },
    };
  } else if (url.endsWith("/messages")) {
    // Anthropic models without structured outputs are forced to call a `json` tool: the reply is that tool call.
    const tools = (body as { tools?: Array<{ name?: string }> } | null)?.tools;
    const tool = tools?.find((candidate) => candidate.name === "json");
    payload = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: tool
        ? [{ type: "tool_use", id: "toolu_1", name: "json", input: JSON.parse(text) as unknown }]
        : [{ type: "text", text }],
      stop_reason: tool ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage,
    };
  } else if (url.includes(":generateContent")) {
    payload = {
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
  } else {
    payload = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }
  return new Response(JSON.stringify(payload), { status: 200, headers: { "content-type": "application/json" } });
}

export interface CaptureOptions {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`. */
  readonly reference: string;
  /** Base URL of `ollama:` / `openai-compatible:` servers. */
  readonly openAiCompatibleUrl?: string;
  /**
   * How the stub server answers a request: a `Response` to send as is (e.g. a refusal), or undefined for a successful
   * reply with a mechanical value of the step's schema. Default: always a successful reply.
   */
  readonly respond?: (request: CapturedRequest) => Response | undefined;
  /** Steps to call, in order. Default: every pipeline step. */
  readonly steps?: readonly StepName[];
}

/**
 * Calls every pipeline step once through the real provider client of `reference` (`resolveModel`, `runStep`: the
 * AI SDK provider nlq uses, with the step's real output schema) against a stub `fetch`, and returns each step's HTTP
 * requests and parsed output: the request bodies nlq sends a provider, without a network.
 */
export async function captureStepRequests(options: CaptureOptions): Promise<Map<StepName, CapturedStep>> {
  const captured = new Map<StepName, CapturedStep>();
  for (const step of options.steps ?? stepNames) {
    const schema: z.ZodType = stepOutputSchemas[step];
    const answer = JSON.stringify(mechanicalValue(await zodSchema(schema).jsonSchema));
    const requests: CapturedRequest[] = [];
    const fetch: ResolveModelOptions["fetch"] = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const request = { url, body: JSON.parse(String(init?.body ?? "null")) as unknown };
      requests.push(request);
      return options.respond?.(request) ?? providerReply(request, answer);
    };
    const resolved = resolveModel(options.reference, { openAiCompatibleUrl: options.openAiCompatibleUrl }, { fetch });
    try {
      const result = await runStep({
        step,
        model: resolved.model,
        modelId: resolved.id,
        schema,
        system: `You answer the ${step} step.`,
        prompt: `The ${step} prompt.`,
        question: "How many customers are there?",
        maxRetries: 0,
      });
      captured.set(step, { requests, output: result.output });
    } catch (error) {
      captured.set(step, { requests, error });
    }
  }
  return captured;
}
