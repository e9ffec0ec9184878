import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/**
 * A scripted stand-in for the selection models (no language model is involved): each step answers with the object
 * `answer(step)` returns — in the benchmark, the question's gold tables and columns. Counts the prompt characters
 * each step was sent.
 */
export function createScriptedSelectionModel(answer: (step: string) => unknown) {
  const promptCharacters: Record<string, number> = {};
  const resolveModel = (step: string) => ({
    id: `scripted:gold-${step}`,
    scripted: true,
    model: new MockLanguageModelV3({
      doGenerate: async (call: LanguageModelV3CallOptions) => {
        promptCharacters[step] = (promptCharacters[step] ?? 0) + JSON.stringify(call.prompt).length;
        return {
          content: [{ type: "text", text: JSON.stringify(answer(step)) }],
          finishReason: { unified: "stop", raw: undefined },
          usage: {
            inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 0, text: 0, reasoning: 0 },
          },
          warnings: [],
        };
      },
    }),
  });
  return { resolveModel, promptCharacters };
}
