import { loadSettings } from "@nlq/engine";
import { z } from "zod";
import { authorizeRequest, errorResponse } from "../../../lib/authorize-request";
import { runEditedSql } from "../../../lib/run-edited-sql";
import { resolveScriptedModelPaths } from "../../../lib/scripted-model-paths";
import { openUserSession } from "../../../lib/user-session";
import { ChatRequestError } from "../../../lib/web-errors";

const runBody = z.object({ sql: z.string().min(1).max(100_000), offset: z.number().int().min(0).optional() });

/**
 * Re-runs (edited) SQL as the signed-in role: `{ sql, offset? }` → one page of rows with `totalRows`. Validated and
 * run read-only with the pipeline's limits (`NLQ_ROW_LIMIT`, `NLQ_RESULT_BYTE_LIMIT`, `NLQ_STATEMENT_TIMEOUT_MS`).
 */
export async function POST(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  let failed = true;
  let session: Awaited<ReturnType<typeof openUserSession>>;
  try {
    session = await openUserSession(authorization.user, request.signal);
  } catch (error) {
    return errorResponse(error);
  }
  try {
    const parsed = runBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the SQL to run.");
    const result = await runEditedSql({
      session: session.executor,
      sql: parsed.data.sql,
      ...(parsed.data.offset === undefined ? {} : { offset: parsed.data.offset }),
      settings: loadSettings(resolveScriptedModelPaths(process.env)),
      abortSignal: request.signal,
    });
    failed = false;
    return Response.json(result);
  } catch (error) {
    return errorResponse(error);
  } finally {
    session.release(failed);
  }
}
