import {
  builtInPresetNames,
  type ConversationTurn,
  checkQuestionLength,
  DEFAULT_MAX_QUESTION_LENGTH,
} from "@nlq/engine";
import { z } from "zod";
import { maximumPreviousTurns } from "./chat-message";
import { ChatRequestError } from "./web-errors";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const message = z.object({
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(z.union([textPart, z.object({ type: z.string() }).loose()])),
});
const chatBody = z.object({ messages: z.array(message).min(1) }).loose();

/**
 * The question of a chat request as `useChat`'s transport sends it: the text of the last user message.
 * Throws `ChatRequestError` when the body has no usable question, `QuestionTooLongError` (SQLSTATE 54000) when it is
 * longer than `maximumLength` characters (`NLQ_MAX_QUESTION_LENGTH`; default `DEFAULT_MAX_QUESTION_LENGTH`, 4000).
 */
export function questionFromBody(body: unknown, maximumLength = DEFAULT_MAX_QUESTION_LENGTH): string {
  const parsed = chatBody.safeParse(body);
  if (!parsed.success) throw new ChatRequestError("The request body is not a chat request.");
  const lastUser = parsed.data.messages.findLast((candidate) => candidate.role === "user");
  const question = textOf(lastUser?.parts ?? []);
  if (question === "") throw new ChatRequestError("Ask a question in plain language.");
  checkQuestionLength(question, maximumLength);
  return question;
}

/**
 * The preset the request asks for (`"preset"` beside `messages`: a built-in preset name), or undefined for the
 * server's `NLQ_PRESET`. Only built-in names are accepted from a browser: a preset file path is the operator's choice.
 */
export function presetFromBody(body: unknown): string | undefined {
  const preset = (body as { preset?: unknown } | null)?.preset;
  if (preset === undefined || preset === null || preset === "") return undefined;
  if (typeof preset !== "string" || !(builtInPresetNames as readonly string[]).includes(preset)) {
    throw new ChatRequestError(`Unknown preset: use ${builtInPresetNames.join(", ")}.`);
  }
  return preset;
}

/**
 * The earlier turns of the conversation, oldest first (at most `maximumPreviousTurns`): each earlier user
 * question with the SQL of the answer that followed it, when there was one. The last user message (the
 * question being asked) is not included. The browser sends them, so they only ever reach a prompt: the
 * new SQL is validated and run read-only like any other. Each earlier question is cut at `maximumLength` characters
 * (default `DEFAULT_MAX_QUESTION_LENGTH`).
 */
export function previousTurnsFromBody(body: unknown, maximumLength = DEFAULT_MAX_QUESTION_LENGTH): ConversationTurn[] {
  const parsed = chatBody.safeParse(body);
  if (!parsed.success) return [];
  const messages = parsed.data.messages;
  const lastUser = messages.findLastIndex((candidate) => candidate.role === "user");
  const turns: ConversationTurn[] = [];
  for (let position = 0; position < lastUser; position += 1) {
    const message = messages[position];
    if (message?.role !== "user") continue;
    const question = textOf(message.parts).slice(0, maximumLength);
    if (question === "") continue;
    const reply = messages[position + 1];
    const sql = reply?.role === "assistant" ? answerSqlOf(reply.parts) : undefined;
    turns.push(sql === undefined ? { question } : { question, sql });
  }
  return turns.slice(-maximumPreviousTurns);
}

/** The text parts of a message, joined by newlines and trimmed. */
function textOf(parts: ReadonlyArray<{ type: string; text?: unknown }>): string {
  return parts
    .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
    .join("\n")
    .trim();
}

function answerSqlOf(parts: ReadonlyArray<{ type: string; data?: unknown }>): string | undefined {
  const answer = parts.find((part) => part.type === "data-answer");
  const sql = (answer?.data as { sql?: unknown } | undefined)?.sql;
  return typeof sql === "string" && sql.trim() !== "" ? sql : undefined;
}

const threadBody = z.object({ threadId: z.string().uuid() }).loose();

/** The thread the question continues (`threadId` in the body), or undefined for a new conversation. */
export function threadIdFromBody(body: unknown): string | undefined {
  const parsed = threadBody.safeParse(body);
  return parsed.success ? parsed.data.threadId : undefined;
}
