import { KnowledgeStore } from "@nlq/adapters";
import { z } from "zod";
import { readableEntry } from "../../../../../lib/knowledge-for-user";
import { withKnowledgeViewer } from "../../../../../lib/knowledge-viewer";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const decisionBody = z.object({ decision: z.enum(["accept", "reject"]) });

/**
 * Decides a suggestion: `{ decision: "accept" }` (administrators: it becomes their entry, shared with every role) or
 * `{ decision: "reject" }` (administrators; its proposer withdraws it). 404 when there is no such suggestion the user
 * may decide.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store }) => {
    const parsed = decisionBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("The decision is accept or reject.");
    return withKnowledgeViewer(user, async (viewer) => {
      if (!(await readableEntry(store.database, viewer, id))) return notFound("suggestion");
      const knowledge = new KnowledgeStore(store.database);
      if (parsed.data.decision === "accept") {
        const accepted = await knowledge.accept(user.dataSource, id, viewer);
        return accepted ? Response.json({ id: accepted.id }) : notFound("suggestion");
      }
      return (await knowledge.reject(user.dataSource, id, viewer))
        ? new Response(null, { status: 204 })
        : notFound("suggestion");
    });
  });
}
