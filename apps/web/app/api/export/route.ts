import { loadSettings } from "@nlq/engine";
import { authorizeRequest, errorResponse } from "../../../lib/authorize-request";
import { exportCsv } from "../../../lib/export-csv";
import { exportFileName } from "../../../lib/export-file-name";
import { resolveScriptedModelPaths } from "../../../lib/scripted-model-paths";
import { openUserSession } from "../../../lib/user-session";
import { ChatRequestError } from "../../../lib/web-errors";

/**
 * Downloads the full result of `sql` (a form field) as CSV, streamed through a cursor as the signed-in role, read-only,
 * not cut by the display row cap. A form POST, so the browser saves the stream as it arrives. The file is named from
 * the optional `question` field (`nlq-<slug>.csv`, `exportFileName`), `nlq-result.csv` without one.
 */
export async function POST(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  let sql: string;
  let question: string | undefined;
  try {
    const form = await request.formData();
    const value = form.get("sql");
    if (typeof value !== "string" || value.trim() === "") throw new ChatRequestError("Send the SQL to export.");
    sql = value;
    const asked = form.get("question");
    question = typeof asked === "string" ? asked.slice(0, 4_000) : undefined;
  } catch (error) {
    return errorResponse(error);
  }
  let session: Awaited<ReturnType<typeof openUserSession>>;
  try {
    session = await openUserSession(authorization.user, request.signal);
  } catch (error) {
    return errorResponse(error);
  }
  try {
    const stream = await exportCsv({
      session: session.executor,
      sql,
      settings: loadSettings(resolveScriptedModelPaths(process.env)),
      abortSignal: request.signal,
      onDone: (failed) => session.release(failed),
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(question, "csv")}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
