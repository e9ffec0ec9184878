import { z } from "zod";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const feedbackBody = z.object({ feedback: z.enum(["up", "down"]).nullable() });

/**
 * Thumbs up/down on one of the user's turns: `{ feedback: "up" | "down" | null }`. A thumbs-up on an answer makes its
 * question–SQL pair a verified example of the data source (used as a few-shot demonstration for similar questions).
 * Answers `{ feedback, verifiedExampleId? }`.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, threads, examples }) => {
    const parsed = feedbackBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Feedback is up, down or null.");
    const turn = await threads.setFeedback(user, id, parsed.data.feedback);
    if (!turn) return notFound("turn");
    if (parsed.data.feedback !== "up" || !turn.sql) return Response.json({ feedback: turn.feedback });
    const example = await examples.save({
      dataSource: user.dataSource,
      question: turn.question,
      sql: turn.sql,
      source: "accepted",
      verifiedBy: user.role,
    });
    return Response.json({ feedback: turn.feedback, verifiedExampleId: example.id });
  });
}
