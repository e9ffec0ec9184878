import { withWorkspace } from "../../../lib/workspace-request";

/** The signed-in user's threads on this data source, most recent first. */
export function GET(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, threads }) => Response.json({ threads: await threads.list(user) }));
}
