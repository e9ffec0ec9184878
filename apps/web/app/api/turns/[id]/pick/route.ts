import { loadSettings } from "@nlq/engine";
import { z } from "zod";
import { pickReading } from "../../../../../lib/pick-reading";
import { requestClient } from "../../../../../lib/request-client";
import { runEditedSql } from "../../../../../lib/run-edited-sql";
import { resolveScriptedModelPaths } from "../../../../../lib/scripted-model-paths";
import { withUserSession } from "../../../../../lib/user-session";
import { ChatRequestError } from "../../../../../lib/web-errors";
import { notFound, withWorkspace } from "../../../../../lib/workspace-request";

interface Context {
  readonly params: Promise<{ id: string }>;
}

const pickBody = z.object({ number: z.number().int().min(1).max(100) });

/**
 * Runs reading `number` of one of the user's turns (`pickReading`): its stored SQL, validated again and run read-only
 * as the user's role; only the audit entry is kept. Answers the first page of rows as `/api/sql` does; 404 when the
 * turn is not the user's.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { id } = await context.params;
  return withWorkspace(request, async ({ user, store, threads }) => {
    const parsed = pickBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the number of the reading to run.");
    const settings = loadSettings(resolveScriptedModelPaths(process.env));
    const result = await pickReading({
      threads,
      user,
      turnId: id,
      number: parsed.data.number,
      run: (sql) =>
        withUserSession(
          user,
          (session) => runEditedSql({ session: session.executor, sql, settings, abortSignal: request.signal }),
          request.signal,
        ),
      audit: {
        trail: store.auditTrail,
        asker: { surface: "web", role: user.role, dataSource: user.dataSource, ...requestClient(request) },
      },
    });
    return result ? Response.json(result) : notFound("turn");
  });
}
