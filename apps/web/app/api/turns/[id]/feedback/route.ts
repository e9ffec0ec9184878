import { z } from "zod";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { isAdministrator, notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const feedbackBody = z.object({ feedback: z.enum(["up", "down"]).nullable() });

/**
 * Thumbs up/down on one of the user's turns: `{ feedback: "up" | "down" | null }`. A thumbs-up on an answer makes its
 * question–SQL pair a verified example: the role's own, or shared with every role when the role is an administrator
 * (`isAdministrator`). Thumbs down, or taking the thumbs-up back (null), retracts the example that turn's thumbs-up
 * saved. Answers `{ feedback, verifiedExampleId?, retracted? }`.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, threads, examples }) => {
    const parsed = feedbackBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Feedback is up, down or null.");
    const turn = await threads.setFeedback(user, id, parsed.data.feedback);
    if (!turn) return notFound("turn");
    if (parsed.data.feedback !== "up") {
      const retracted = await examples.retractAccepted(user.dataSource, user.role, turn.id);
      return Response.json({ feedback: turn.feedback, ...(retracted > 0 ? { retracted: true } : {}) });
    }
    if (!turn.sql) return Response.json({ feedback: turn.feedback });
    const example = await examples.save({
      dataSource: user.dataSource,
      question: turn.question,
      sql: turn.sql,
      source: "accepted",
      verifiedBy: user.role,
      sharedWithAllRoles: await isAdministrator(user),
      turnId: turn.id,
    });
    return Response.json({ feedback: turn.feedback, verifiedExampleId: example.id });
  });
}
