import { z } from "zod";
import { ChatRequestError } from "./web-errors";

/** Longest question the web app accepts, in characters. */
export const maximumQuestionLength = 4_000;

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const message = z.object({
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(z.union([textPart, z.object({ type: z.string() }).loose()])),
});
const chatBody = z.object({ messages: z.array(message).min(1) }).loose();

/**
 * The question of a chat request as `useChat`'s transport sends it: the text of the last user message.
 * Throws `ChatRequestError` when the body has no usable question.
 */
export function questionFromBody(body: unknown): string {
  const parsed = chatBody.safeParse(body);
  if (!parsed.success) throw new ChatRequestError("The request body is not a chat request.");
  const lastUser = parsed.data.messages.findLast((candidate) => candidate.role === "user");
  const question = (lastUser?.parts ?? [])
    .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
    .join("\n")
    .trim();
  if (question === "") throw new ChatRequestError("Ask a question in plain language.");
  if (question.length > maximumQuestionLength) {
    throw new ChatRequestError(`The question is longer than ${maximumQuestionLength} characters.`);
  }
  return question;
}
