import { KnowledgeStore } from "@nlq/adapters";
import { z } from "zod";
import { knowledgeForUser } from "../../../lib/knowledge-for-user";
import { withKnowledgeViewer } from "../../../lib/knowledge-viewer";
import { ChatRequestError } from "../../../lib/web-errors";
import { withWorkspace } from "../../../lib/workspace-request";

/**
 * The knowledge entries of the user's data source its role may see (its own and administrators' shared ones, each only
 * when the role may read every table and column it names), and the suggestions waiting (all for an administrator, the
 * role's own otherwise): `{ entries, suggestions, administrator }`.
 */
export function GET(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, store }) =>
    Response.json(await withKnowledgeViewer(user, (viewer) => knowledgeForUser(store.database, viewer))),
  );
}

/** What the page sends for a new entry (the store checks and normalizes it further). */
const knowledgeContentBody = z.object({
  kind: z.enum(["term", "metric", "description", "rule"]),
  name: z.string().max(200),
  text: z.string().max(4_000),
  sql: z.string().max(4_000).optional(),
  references: z.array(z.string().max(200)).max(64).optional(),
});

/**
 * Adds an entry: an administrator's is saved at once and shared with every role; anyone else's is a suggestion an
 * administrator accepts or rejects (used by no prompt until then). Answers `{ id, suggested }`.
 */
export function POST(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, store }) => {
    const parsed = knowledgeContentBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the entry's kind, name and text.");
    const { sql, references, ...content } = parsed.data;
    const entry = {
      ...content,
      dataSource: user.dataSource,
      ...(sql?.trim() ? { sql } : {}),
      ...(references ? { references } : {}),
    };
    const knowledge = new KnowledgeStore(store.database);
    return withKnowledgeViewer(user, async (viewer) => {
      if (!viewer.administrator) {
        const suggestion = await knowledge.suggest(entry, user.role);
        return Response.json({ id: suggestion.id, suggested: true }, { status: 201 });
      }
      const saved = await knowledge.save({ ...entry, origin: "manual" }, viewer);
      return Response.json({ id: saved.entry.id, suggested: false }, { status: 201 });
    });
  });
}
