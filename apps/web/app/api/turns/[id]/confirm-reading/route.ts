import { loadSettings, runReadOnly } from "@nlq/engine";
import { z } from "zod";
import { confirmPickedReading } from "../../../../../lib/confirm-picked-reading";
import { validatedSql } from "../../../../../lib/run-edited-sql";
import { resolveScriptedModelPaths } from "../../../../../lib/scripted-model-paths";
import { withUserSession } from "../../../../../lib/user-session";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { exampleEditor, notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const confirmBody = z.object({ number: z.number().int().min(1).max(100) });

/**
 * "Use this from now on" for reading `number` of one of the user's turns (`confirmPickedReading`): stores the reading
 * knowledge entry and the verified example, both "picked from N readings by <role>" (every role's when an
 * administrator confirms). Answers `{ kind, scope, message, entryId? }`; 404 when the turn is not the user's.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store, threads }) => {
    const parsed = confirmBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the number of the reading to use from now on.");
    const settings = loadSettings(resolveScriptedModelPaths(process.env));
    const remembered = await confirmPickedReading({
      database: store.database,
      threads,
      user,
      turnId: id,
      number: parsed.data.number,
      editor: () => exampleEditor(user),
      validate: (sql) =>
        withUserSession(user, (session) =>
          runReadOnly(
            { session: session.executor, statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds },
            (query) => validatedSql(query, sql, settings),
          ),
        ),
    });
    return remembered ? Response.json(remembered) : notFound("turn");
  });
}
