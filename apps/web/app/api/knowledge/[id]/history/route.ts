import { knowledgeHistoryForUser } from "../../../../../lib/knowledge-for-user";
import { withKnowledgeViewer } from "../../../../../lib/knowledge-viewer";
import { withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

/** Every change of an entry the page shows the user, oldest first: `{ history }` (empty for any other entry). */
export async function GET(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store }) =>
    Response.json({
      history: await withKnowledgeViewer(user, (viewer) => knowledgeHistoryForUser(store.database, viewer, id)),
    }),
  );
}
