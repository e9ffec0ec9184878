import { KnowledgeStore } from "@nlq/adapters";
import { z } from "zod";
import { readableEntry } from "../../../../lib/knowledge-for-user";
import { withKnowledgeViewer } from "../../../../lib/knowledge-viewer";
import { ChatRequestError } from "../../../../lib/web-errors";
import { notFound, withWorkspace } from "../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const changeBody = z.object({
  name: z.string().max(200).optional(),
  text: z.string().max(4_000).optional(),
  sql: z.string().max(4_000).optional(),
  references: z.array(z.string().max(200)).max(64).optional(),
});

/**
 * Edits an entry the page shows the user: a role its own, an administrator also the shared ones (the entry is then
 * the administrator's, shared). The old version stays in its history. 404 for any entry the page would not show.
 */
export async function PATCH(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store }) => {
    const parsed = changeBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the entry's new name, text, SQL or references.");
    return withKnowledgeViewer(user, async (viewer) => {
      if (!(await readableEntry(store.database, viewer, id))) return notFound("knowledge entry");
      const updated = await new KnowledgeStore(store.database).update(user.dataSource, id, parsed.data, viewer);
      return updated ? Response.json({ id: updated.id }) : notFound("knowledge entry");
    });
  });
}

/** Removes an entry (as `PATCH` may change it); the removal is kept in its history. 204, or 404. */
export async function DELETE(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store }) =>
    withKnowledgeViewer(user, async (viewer) => {
      if (!(await readableEntry(store.database, viewer, id))) return notFound("knowledge entry");
      return (await new KnowledgeStore(store.database).remove(user.dataSource, id, viewer))
        ? new Response(null, { status: 204 })
        : notFound("knowledge entry");
    }),
  );
}
