import { z } from "zod";
import { InsufficientPrivilegeError } from "../../../../lib/web-errors";
import { isAdministrator, notFound, withWorkspace } from "../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const editBody = z.object({ question: z.string().trim().min(1).max(4000), sql: z.string().trim().min(1).max(100_000) });

/** Edits a verified example: `{ question, sql }`. Administrators only (superuser or CREATEROLE). */
export async function PATCH(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, examples }) => {
    if (!(await isAdministrator(user))) throw new InsufficientPrivilegeError();
    const parsed = editBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success)
      return Response.json({ error: { code: "22023", message: "A question and SQL are required." } }, { status: 400 });
    const updated = await examples.update(user.dataSource, id, { ...parsed.data, verifiedBy: user.role });
    return updated ? Response.json({ id: updated.id }) : notFound("verified example");
  });
}

/** Deletes a verified example. Administrators only. */
export async function DELETE(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, examples }) => {
    if (!(await isAdministrator(user))) throw new InsufficientPrivilegeError();
    return (await examples.delete(user.dataSource, id))
      ? new Response(null, { status: 204 })
      : notFound("verified example");
  });
}
