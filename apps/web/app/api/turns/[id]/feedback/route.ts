import { z } from "zod";
import { applyTurnFeedback } from "../../../../../lib/turn-feedback";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { isAdministrator, notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const feedbackBody = z.object({ feedback: z.enum(["up", "down"]).nullable() });

/**
 * Thumbs up/down on one of the user's turns: `{ feedback: "up" | "down" | null }` (`applyTurnFeedback`). A thumbs-up
 * on an answer makes its question–SQL pair a verified example: the role's own, or shared with every role when the
 * role is an administrator. Thumbs down, or null, retracts the example that turn's thumbs-up saved; a thumbs-down also
 * evicts the cached model responses of the question's answers. Answers `{ feedback, verifiedExampleId?, retracted?,
 * evictedResponses? }`.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store, threads, examples }) => {
    const parsed = feedbackBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Feedback is up, down or null.");
    const outcome = await applyTurnFeedback({
      threads,
      examples,
      user,
      turnId: id,
      feedback: parsed.data.feedback,
      administrator: () => isAdministrator(user),
      responseCache: store.llmCache,
    });
    return outcome ? Response.json(outcome) : notFound("turn");
  });
}
