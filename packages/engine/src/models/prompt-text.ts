import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";

/** The text of a model call's prompt: every message's text parts (system and user), one message per line. */
export function promptText(call: LanguageModelV3CallOptions): string {
  return call.prompt
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => ("text" in part ? part.text : "")).join(""),
    )
    .join("\n");
}
