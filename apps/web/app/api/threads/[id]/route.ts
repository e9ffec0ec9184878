import { z } from "zod";
import { ChatRequestError } from "../../../../lib/web-errors";
import { notFound, withWorkspace } from "../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

/** One of the user's threads with its turns (question, SQL, stored reply, feedback). */
export async function GET(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, threads }) => {
    const found = await threads.get(user, id);
    if (!found) return notFound("thread");
    return Response.json({
      thread: { id: found.thread.id, title: found.thread.title },
      turns: found.turns.map((turn) => ({
        id: turn.id,
        question: turn.question,
        sql: turn.sql,
        reply: turn.reply,
        feedback: turn.feedback,
      })),
    });
  });
}

const renameBody = z.object({ title: z.string().trim().min(1).max(200) });

/** Renames one of the user's threads: `{ title }`. */
export async function PATCH(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, threads }) => {
    const parsed = renameBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Give the thread a title.");
    return (await threads.rename(user, id, parsed.data.title))
      ? new Response(null, { status: 204 })
      : notFound("thread");
  });
}

/** Deletes one of the user's threads with its turns. */
export async function DELETE(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, threads }) =>
    (await threads.delete(user, id)) ? new Response(null, { status: 204 }) : notFound("thread"),
  );
}
