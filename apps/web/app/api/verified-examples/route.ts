import { withWorkspace } from "../../../lib/workspace-request";

/** The verified examples of the user's data source, most recently changed first. */
export function GET(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, examples }) =>
    Response.json({
      examples: (await examples.list(user.dataSource)).map((example) => ({
        id: example.id,
        question: example.question,
        sql: example.sql,
        source: example.source,
        verifiedBy: example.verifiedBy,
        updatedAt: example.updatedAt,
      })),
    }),
  );
}
