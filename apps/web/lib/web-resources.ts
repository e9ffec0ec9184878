import { type MetadataStore, openMetadataStore } from "@nlq/adapters";
import type pg from "pg";
import { createWebPool } from "./pg-session";
import { createRoleSessions, type RoleSessions } from "./role-sessions";
import type { WebSettings } from "./web-settings";

/** Process-wide resources, kept on `globalThis` so dev-mode reloads do not open a new pool each time. */
interface WebResources {
  pool?: pg.Pool;
  metadataStore?: Promise<MetadataStore | undefined>;
  roleSessions?: RoleSessions;
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

/** The pool of `DATABASE_URL`'s own role: single-user mode (`NLQ_WEB_SINGLE_USER=on`) answers on it. */
export function webPool(service: WebSettings): pg.Pool {
  resources.pool ??= createWebPool({ connectionString: service.databaseUrl, maximumConnections: service.webPoolSize });
  return resources.pool;
}

/** The signed-in users' sessions (each with a pool authenticated as the user's role), in server memory. */
export function webRoleSessions(service: WebSettings): RoleSessions {
  // createWebPool's check: a missing DATABASE_URL is a ConfigurationError, not a sign-in failure.
  if (!service.databaseUrl) createWebPool({ connectionString: undefined });
  resources.roleSessions ??= createRoleSessions({
    databaseUrl: service.databaseUrl!,
    idleMilliseconds: service.webSessionIdleMinutes * 60_000,
  });
  return resources.roleSessions;
}

/**
 * The metadata store named by `NLQ_METADATA_URL` (`nlq start` always hands one over). A store that cannot be opened
 * is logged once and the app answers without query log, catalog index, history and verified examples rather than
 * failing every question.
 */
export function webMetadataStore(service: WebSettings): Promise<MetadataStore | undefined> {
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
