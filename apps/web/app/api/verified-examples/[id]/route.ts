import { z } from "zod";
import { exampleEditor, notFound, withWorkspace } from "../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const editBody = z.object({ question: z.string().trim().min(1).max(4000), sql: z.string().trim().min(1).max(100_000) });

/**
 * Edits a verified example: `{ question, sql }`. A role edits its own examples; an administrator also the shared ones
 * (and the edited example is then shared). 404 for any other.
 */
export async function PATCH(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, examples }) => {
    const parsed = editBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success)
      return Response.json({ error: { code: "22023", message: "A question and SQL are required." } }, { status: 400 });
    const updated = await examples.update(user.dataSource, id, parsed.data, await exampleEditor(user));
    return updated ? Response.json({ id: updated.id }) : notFound("verified example");
  });
}

/** Deletes a verified example: a role its own, an administrator also the shared ones; 404 for any other. */
export async function DELETE(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, examples }) => {
    return (await examples.delete(user.dataSource, id, await exampleEditor(user)))
      ? new Response(null, { status: 204 })
      : notFound("verified example");
  });
}
