import { createPgExecutor, createQuestionAnswerer, WebThreadStore } from "@nlq/adapters";
import { loadSettings, type QueryLog } from "@nlq/engine";
import type { ChatDependencies } from "./chat-handler";
import { openPoolSession } from "./pg-session";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { createThreadRecorder } from "./thread-recorder";
import { webMetadataStore, webPool } from "./web-resources";
import { loadWebSettings, type WebSettings } from "./web-settings";
import type { WebUser } from "./web-user";

/**
 * The real dependencies of the chat route: core's pipeline, `DATABASE_URL`, `NLQ_*` settings, and with a metadata
 * store its query log and catalog index — each question uses the index `nlq index` built for its database (live
 * introspection when there is none). Each question runs on a connection of `user`'s pool (authenticated as the user's
 * own role, so the catalog, retrieval and the SQL see what that role may read); without a user, on `DATABASE_URL`'s
 * pool. With a metadata store and a user, the user's threads are kept there. The composition hands each question the
 * verified examples and knowledge its role may be shown, as on every surface (`createQuestionAnswerer`).
 */
export async function defaultChatDependencies(user?: WebUser): Promise<ChatDependencies> {
  let service: WebSettings;
  try {
    service = loadWebSettings(process.env);
  } catch (error) {
    // A bad NLQ_* value: each question reports the ConfigurationError in the chat, before any session is opened.
    return {
      answer: createQuestionAnswerer({}).answer,
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
    // Composed per request; the value indexes built in the background are the process's, so each database and role
    // is still built once. A database nothing is indexed for (any, without a store) gets one, as in the proxy: over a
    // connection of its own as the asking role with no password (the user's is never handed on), so the build logs in
    // only where the server asks none and the question otherwise keeps the bounded live value lookup. The query log is
    // handed to each question by the chat handler.
    answer: createQuestionAnswerer(
      upstreamUrl
        ? {
            ...(store ? { store, llmCache: store.llmCache } : {}),
            upstreamUrl,
            qdrant: service.qdrant,
            backgroundValueIndexes: true,
          }
        : {},
    ).answer,
    settings: (preset) =>
      loadSettings({
        ...resolveScriptedModelPaths(process.env),
        ...(preset === undefined ? {} : { NLQ_PRESET: preset }),
      }),
    openSession: (abortSignal) =>
      openPoolSession(user?.pool ?? webPool(service), (connection) => createPgExecutor(connection), abortSignal),
    ...(log ? { queryLog: log } : {}),
    ...(store && user
      ? { audit: { trail: store.auditTrail, asker: { surface: "web", role: user.role, dataSource: user.dataSource } } }
      : {}),
    ...(store && user ? { threads: createThreadRecorder(new WebThreadStore(store.database), user) } : {}),
  };
}
