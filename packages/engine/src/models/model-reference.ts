import { ModelConfigurationError } from "../errors/model-errors";

/** Providers a model reference may name. `scripted` replays a recorded fixture file. */
export const modelProviders = ["openai", "anthropic", "google", "ollama", "openai-compatible", "scripted"] as const;
export type ModelProvider = (typeof modelProviders)[number];

/** A parsed `provider:model` reference. The model part may itself contain colons (`ollama:qwen2.5-coder:7b`). */
export interface ModelReference {
  readonly provider: ModelProvider;
  readonly model: string;
  /** The reference as written, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
}

export const modelConfigurationHelp = [
  "Configure a language model with NLQ_MODEL=<provider>:<model>, for example:",
  "  NLQ_MODEL=openai:gpt-4o-mini with OPENAI_API_KEY",
  "  NLQ_MODEL=anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY",
  "  NLQ_MODEL=google:gemini-2.5-flash with GOOGLE_GENERATIVE_AI_API_KEY",
  "  NLQ_MODEL=ollama:qwen2.5-coder:7b (NLQ_OPENAI_COMPATIBLE_URL, default http://127.0.0.1:11434/v1)",
  "  NLQ_MODEL=openai-compatible:<model> with NLQ_OPENAI_COMPATIBLE_URL",
  "or NLQ_MODEL=scripted:fixtures/demo-model.json for the offline demo (a scripted replay, not a language model).",
].join("\n");

export function parseModelReference(reference: string): ModelReference {
  const text = reference.trim();
  const separator = text.indexOf(":");
  const provider = separator > 0 ? text.slice(0, separator) : "";
  const model = separator > 0 ? text.slice(separator + 1).trim() : "";
  if (!(modelProviders as readonly string[]).includes(provider) || model === "") {
    throw new ModelConfigurationError(
      `cannot resolve model "${reference}": expected one of ${modelProviders.map((name) => `${name}:`).join(", ")} followed by a model name.\n${modelConfigurationHelp}`,
    );
  }
  return { provider: provider as ModelProvider, model, id: text };
}
