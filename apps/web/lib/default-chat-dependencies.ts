import { createPgExecutor, withCatalogIndex } from "@nlq/adapters";
import { answerQuestion, loadServiceSettings, loadSettings, type QueryLog, type ServiceSettings } from "@nlq/engine";
import type { ChatDependencies } from "./chat-handler";
import { openPoolSession } from "./pg-session";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { webMetadataStore, webPool } from "./web-resources";
import type { WebUser } from "./web-user";

/**
 * The real dependencies of the chat route: core's pipeline, `DATABASE_URL`, `NLQ_*` settings, and with a metadata
 * store its query log and catalog index — each question uses the index `nlq index` built for its database (live
 * introspection when there is none). Each question runs on a connection of `user`'s pool (authenticated as the user's
 * own role, so the catalog, retrieval and the SQL see what that role may read); without a user, on `DATABASE_URL`'s
 * pool (single-user mode).
 */
export async function defaultChatDependencies(user?: WebUser): Promise<ChatDependencies> {
  let service: ServiceSettings;
  try {
    service = loadServiceSettings(process.env);
  } catch (error) {
    // A bad NLQ_* value: each question reports the ConfigurationError in the chat, before any session is opened.
    return {
      answer: answerQuestion,
      settings: () => {
        throw error;
      },
      openSession: () => Promise.reject(error),
    };
  }
  const store = await webMetadataStore(service);
  const log: QueryLog | undefined = store?.queryLog;
  const upstreamUrl = service.databaseUrl;
  return {
    answer:
      store && upstreamUrl
        ? withCatalogIndex(answerQuestion, { store, upstreamUrl, qdrant: service.qdrant })
        : answerQuestion,
    settings: () => loadSettings(resolveScriptedModelPaths(process.env)),
    openSession: (abortSignal) =>
      openPoolSession(user?.pool ?? webPool(service), (connection) => createPgExecutor(connection), abortSignal),
    ...(log ? { queryLog: log } : {}),
  };
}
