import {
  answerQuestion,
  createPgExecutor,
  loadSettings,
  type MetadataStore,
  openMetadataStore,
  type QueryLog,
} from "@nlq/core";
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

function pool(): pg.Pool {
  resources.pool ??= createWebPool();
  return resources.pool;
}

/**
 * The query log, when `NLQ_METADATA_URL` names a metadata store. A store that cannot be opened is
 * logged once and the app answers without a log rather than failing every question.
 */
function queryLog(): Promise<QueryLog | undefined> {
  if (!process.env.NLQ_METADATA_URL) return Promise.resolve(undefined);
  resources.metadataStore ??= withTimeout(
    openMetadataStore({ url: process.env.NLQ_METADATA_URL }),
    metadataOpenTimeoutMilliseconds,
  ).catch((error: unknown) => {
    console.error("nlq web: cannot open the metadata store, questions are not logged", error);
    return undefined;
  });
  return resources.metadataStore.then((store) => store?.queryLog);
}

/** The real dependencies of the chat route: core's pipeline, `DATABASE_URL`, `NLQ_*` settings, the query log. */
export async function defaultChatDependencies(): Promise<ChatDependencies> {
  const log = await queryLog();
  return {
    answer: answerQuestion,
    settings: () => loadSettings(resolveScriptedModelPaths(process.env)),
    openSession: (abortSignal) => openPoolSession(pool(), (connection) => createPgExecutor(connection), abortSignal),
    ...(log ? { queryLog: log } : {}),
  };
}
