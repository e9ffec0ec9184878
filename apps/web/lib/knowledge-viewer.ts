import { loadSettings } from "@nlq/engine";
import type { KnowledgeViewer } from "./knowledge-for-user";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { withUserSession } from "./user-session";
import type { WebUser } from "./web-user";
import { isAdministrator } from "./workspace-request";

/**
 * Runs `work` as the signed-in user looking at the knowledge page: its role, whether it is an administrator (a
 * superuser or a member of `NLQ_WEB_EXAMPLE_ADMIN_ROLE`), and a session of its own pool on which what it may read is
 * introspected (under `NLQ_STATEMENT_TIMEOUT_MS`).
 */
export async function withKnowledgeViewer<T>(user: WebUser, work: (viewer: KnowledgeViewer) => Promise<T>): Promise<T> {
  const settings = loadSettings(resolveScriptedModelPaths(process.env));
  const administrator = await isAdministrator(user);
  return withUserSession(user, (session) =>
    work({
      role: user.role,
      administrator,
      dataSource: user.dataSource,
      session: session.executor,
      statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
    }),
  );
}
