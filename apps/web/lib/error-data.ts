import { ModelCallError, ModelConfigurationError, NlqError, QuestionTooLongError } from "@nlq/engine";
import type { ErrorData, ErrorReason } from "./chat-message";
import { SignInRequiredError } from "./web-errors";

/** SQLSTATE of errors the page may not see the details of (internal_error). */
const internalErrorCode = "XX000";

/** The scripted model's message when its fixture has no response for a question (models/scripted-model.ts). */
const notRecorded = /^scripted model has no response/;
/** A provider's refusal: a content filter, a policy block, or a reply that declines instead of answering. */
const refusal = /content[ _-]?(filter|policy|management)|safety|\brefus(ed|al)\b/i;
const decliningReply =
  /^\s*(I['’]?m sorry|I am sorry|I can(?:no|['’])t|I cannot|I won['’]?t|I am unable|I['’]?m unable)/i;

/** What the page says about each reason: the message replaces the engine's (which names internal steps). */
function wording(reason: ErrorReason, error: NlqError): string {
  switch (reason) {
    case "too-long": {
      const tooLong = error as QuestionTooLongError;
      return `Your question is ${tooLong.length.toLocaleString("en-US")} characters long; the limit is ${tooLong.limit.toLocaleString("en-US")}. Shorten it and ask again.`;
    }
    case "session-ended":
      return "Your session has ended (signed out in another tab, or idle for too long). Sign in again to go on.";
    case "model-not-configured":
      return "No language model is configured for this server, so questions cannot be answered. The administrator sets NLQ_MODEL (for example openai:gpt-4o-mini with OPENAI_API_KEY, or scripted:fixtures/demo-model.json for the offline demo) and restarts nlq.";
    case "model-refused":
      return "The language model declined to answer this question. Rephrase it, or ask about the data in other words.";
    case "not-recorded":
      return "This is the scripted demo: it replays answers recorded for a fixed list of questions, and this question is not one of them. Pick a recorded question below, or configure a language model (NLQ_MODEL) to ask anything.";
    case "model-failed":
      return `The language model did not answer: ${withoutStepNames(withoutServerPaths(error.message))}`;
  }
}

/** Why a typed error happened, when the page has its own words for it. */
function reasonOf(error: NlqError): ErrorReason | undefined {
  if (QuestionTooLongError.isInstance(error)) return "too-long";
  if (SignInRequiredError.isInstance(error)) return "session-ended";
  if (ModelConfigurationError.isInstance(error) && /no language model is configured/i.test(error.message)) {
    return "model-not-configured";
  }
  if (ModelCallError.isInstance(error) && notRecorded.test(error.message)) return "not-recorded";
  // ModelOutputError (not exported by @nlq/engine): the model's reply did not match the step's schema.
  const outputError = error.name === "ModelOutputError" && error.code === "58000";
  if (outputError || ModelCallError.isInstance(error)) {
    const cause = error.cause as { message?: unknown; finishReason?: unknown } | undefined;
    const causeText = typeof cause?.message === "string" ? cause.message : "";
    const output = outputError ? String((error as NlqError & { output?: unknown }).output ?? "") : "";
    if (cause?.finishReason === "content-filter" || refusal.test(causeText) || decliningReply.test(output)) {
      return "model-refused";
    }
    return "model-failed";
  }
  return undefined;
}

/**
 * What the page is told about a failure. Typed errors of @nlq/engine (and the web app's own subclasses)
 * carry a SQLSTATE and a message written for users; the failures the page words itself (`ErrorReason`) get that
 * wording instead, without the pipeline's step names; anything else is reported as a generic internal
 * error so stack traces and connection strings never reach the browser. No message carries a server path.
 */
export function errorData(error: unknown): ErrorData {
  if (NlqError.isInstance(error)) {
    const context = error as NlqError & { sql?: unknown; detail?: unknown; hint?: unknown };
    const reason = reasonOf(error);
    return {
      code: error.code,
      name: error.name,
      message: reason === undefined ? withoutStepNames(withoutServerPaths(error.message)) : wording(reason, error),
      ...(reason === undefined ? {} : { reason }),
      ...(QuestionTooLongError.isInstance(error) ? { length: error.length, limit: error.limit } : {}),
      ...(typeof context.sql === "string" && context.sql !== "" ? { sql: context.sql } : {}),
      ...(typeof context.detail === "string" && context.detail !== ""
        ? { detail: withoutServerPaths(context.detail) }
        : {}),
      ...(typeof context.hint === "string" && context.hint !== "" ? { hint: withoutServerPaths(context.hint) } : {}),
    };
  }
  return { code: internalErrorCode, name: "InternalError", message: "The question failed with an internal error." };
}

/** An absolute file path of the server (two or more segments, optionally a `file://` URL), e.g. `/srv/nlq/fixtures/a.json`. */
const serverPath = /(?:file:\/\/|(?<![\w.:/]))\/(?:[\w.@+-]+\/)+([\w.@+-]+)/g;

/** The text with each absolute server path reduced to its file name: the page never learns the server's layout. */
export function withoutServerPaths(text: string): string {
  return text.replace(serverPath, (_match, fileName: string) => fileName);
}

/** The pipeline's internal step names (`for step "generate-candidate"`, `(step "x")`), which mean nothing to users. */
const stepName = /\s*(?:\(step "[^"]*"\)|(?:for|before|in) step "[^"]*")/g;

/** The text without the pipeline's step names: `language-model call for step "x" failed: …` → `language-model call failed: …`. */
export function withoutStepNames(text: string): string {
  return text.replace(stepName, "");
}
