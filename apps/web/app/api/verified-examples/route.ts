import { loadSettings, runReadOnly } from "@nlq/engine";
import { z } from "zod";
import { evictCorrectedAnswer } from "../../../lib/evict-corrected-answer";
import { examplesForUser, exampleView } from "../../../lib/examples-for-user";
import { validatedSql } from "../../../lib/run-edited-sql";
import { resolveScriptedModelPaths } from "../../../lib/scripted-model-paths";
import { withUserSession } from "../../../lib/user-session";
import { ChatRequestError } from "../../../lib/web-errors";
import { isAdministrator, withWorkspace } from "../../../lib/workspace-request";

/** Most examples listed. */
const maximumListed = 200;

/**
 * The verified examples the user's role may be shown (its own and administrators' shared ones, checked as that role),
 * most recently changed first; whose each is (`yours`, `shared`) but never another role's name.
 */
export function GET(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, store }) =>
    Response.json({
      examples: (await examplesForUser(user, store, maximumListed)).map((example) => exampleView(example, user.role)),
    }),
  );
}

const correctedBody = z.object({
  question: z.string().trim().min(1).max(4000),
  sql: z.string().trim().min(1).max(100_000),
  /** The question as it was asked, when the user reworded it before saving: its cached answer is evicted too. */
  answered: z.string().trim().min(1).max(4000).optional(),
});

/**
 * Saves a question with SQL the user corrected (and re-ran) as a verified example: `{ question, sql }`. The SQL is
 * validated as the signed-in role first, like any candidate. The example is the role's own; an administrator's is
 * shared with every role. A picked reading is never saved here: "Use this from now on" confirms it
 * (`/api/turns/<id>/confirm-reading`), with its own provenance. A correction also evicts the cached model responses
 * of the role's answers to the question (and to `answered`, the question as asked before the user reworded it), so
 * asking it again calls the model instead of replaying the answer the user corrected.
 */
export function POST(request: Request): Promise<Response> {
  return withWorkspace(request, async ({ user, store, examples }) => {
    const parsed = correctedBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Send the question and its SQL.");
    const settings = loadSettings(resolveScriptedModelPaths(process.env));
    const sql = await withUserSession(user, (session) =>
      runReadOnly(
        { session: session.executor, statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds },
        (query) => validatedSql(query, parsed.data.sql, settings),
      ),
    );
    const example = await examples.save({
      dataSource: user.dataSource,
      question: parsed.data.question,
      sql,
      verifiedBy: user.role,
      source: "corrected",
      sharedWithAllRoles: await isAdministrator(user),
    });
    await evictCorrectedAnswer(store.llmCache, user, parsed.data);
    return Response.json({ id: example.id });
  });
}
