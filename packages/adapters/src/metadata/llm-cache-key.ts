import { createHash } from "node:crypto";
import type { LlmCallKey } from "@nlq/engine";

/** The cache key of one model call: SHA-256 over model, step, system prompt, prompt, temperature and sample. */
export function llmCacheKey(call: LlmCallKey): string {
  return createHash("sha256")
    .update(JSON.stringify([call.model, call.step, call.system ?? null, call.prompt, call.temperature, call.sample]))
    .digest("hex");
}
