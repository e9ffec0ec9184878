import { createPgExecutor, type MetadataStore, openMetadataStore, withCatalogIndex } from "@nlq/adapters";
import { answerQuestion, loadServiceSettings, loadSettings, type QueryLog, type ServiceSettings } from "@nlq/engine";
import type pg from "pg";
import type { ChatDependencies } from "./chat-handler";
import { createWebPool, openPoolSession } from "./pg-session";
import { resolveScriptedModelPaths } from "./scripted-model-paths";

/** Process-wide resources, kept on `globalThis` so dev-mode reloads do not open a new pool each time. */
interface WebResources {
  pool?: pg.Pool;
  metadataStore?: Promise<MetadataStore | undefined>;
}
const globalScope = globalThis as { __nlqWeb?: WebResources };
globalScope.__nlqWeb ??= {};
const resources: WebResources = globalScope.__nlqWeb;

/** How long the first question waits for the metadata store before answering without a query log. */
const metadataOpenTimeoutMilliseconds = 15_000;

function withTimeout<T>(work: Promise<T>, milliseconds: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${milliseconds} ms`)), milliseconds);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function pool(service: ServiceSettings): pg.Pool {
  resources.pool ??= createWebPool({ connectionString: service.databaseUrl, maximumConnections: service.webPoolSize });
  return resources.pool;
}

/**
 * The metadata store named by `NLQ_METADATA_URL` (`nlq start` always hands one over). A store that cannot be opened
 * is logged once and the app answers without query log and catalog index rather than failing every question.
 */
function metadataStore(service: ServiceSettings): Promise<MetadataStore | undefined> {
  if (service.metadataUrl === undefined) return Promise.resolve(undefined);
  resources.metadataStore ??= withTimeout(
    openMetadataStore({ settings: service }),
    metadataOpenTimeoutMilliseconds,
  ).catch((error: unknown) => {
    console.error("nlq web: cannot open the metadata store, questions are not logged and use no catalog index", error);
    return undefined;
  });
  return resources.metadataStore;
}

/**
 * The real dependencies of the chat route: core's pipeline, `DATABASE_URL`, `NLQ_*` settings, and with a metadata
 * store its query log and catalog index — each question uses the index `nlq index` built for its database (live
 * introspection when there is none).
 */
export async function defaultChatDependencies(): Promise<ChatDependencies> {
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
  const store = await metadataStore(service);
  const log: QueryLog | undefined = store?.queryLog;
  const upstreamUrl = service.databaseUrl;
  return {
    answer:
      store && upstreamUrl
        ? withCatalogIndex(answerQuestion, { store, upstreamUrl, qdrant: service.qdrant, llmCache: store.llmCache })
        : answerQuestion,
    settings: (preset) =>
      loadSettings({
        ...resolveScriptedModelPaths(process.env),
        ...(preset === undefined ? {} : { NLQ_PRESET: preset }),
      }),
    openSession: (abortSignal) =>
      openPoolSession(pool(service), (connection) => createPgExecutor(connection), abortSignal),
    ...(log ? { queryLog: log } : {}),
  };
}
