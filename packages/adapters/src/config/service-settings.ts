import { type ParsedEnvironment, parseEnvironment, textVariable, urlVariable } from "@nlq/engine";
import { modelCacheTimeToLiveVariable } from "./model-cache-time-to-live";

/** `postgres://` or `postgresql://` URLs (`NLQ_METADATA_URL`, the proxy's `NLQ_AUTH_QUERY_URL`). */
export const postgresUrlVariable = urlVariable("a postgres:// or postgresql:// URL", ["postgres:", "postgresql:"]);

/**
 * The variables of the resources several of nlq's processes share (the CLI's commands, the proxy, the web app, the MCP
 * server): the user's databases, nlq's home, the metadata store, Qdrant and the administrators' role (the web app's
 * verified examples and `nlq log`). The pipeline's own are the engine's
 * `environmentSchema`; the proxy and the web app add theirs (`proxyVariables`, `webVariables`).
 */
export const serviceVariables = {
  DATABASE_URL: textVariable,
  NLQ_DEMO_URL: textVariable,
  NLQ_HOME: textVariable,
  NLQ_METADATA_URL: postgresUrlVariable,
  NLQ_MIGRATIONS_DIR: textVariable,
  NLQ_RESPONSE_CACHE_TTL: modelCacheTimeToLiveVariable,
  NLQ_QDRANT_URL: urlVariable("an http:// or https:// URL", ["http:", "https:"]),
  NLQ_QDRANT_API_KEY: textVariable,
  NLQ_QDRANT_COLLECTION_PREFIX: textVariable,
  NLQ_WEB_EXAMPLE_ADMIN_ROLE: textVariable.transform((value) => value ?? "nlq_example_admin"),
};

/** Where the description vectors live when not in the metadata store. */
export interface QdrantSettings {
  /** `NLQ_QDRANT_URL`: Qdrant's REST URL. Default: unset (vectors embedded in the metadata store). */
  readonly url: string | undefined;
  /** `NLQ_QDRANT_API_KEY`: Qdrant API key. Default: none. */
  readonly apiKey: string | undefined;
  /** `NLQ_QDRANT_COLLECTION_PREFIX`: prefix of every collection name. Default: none. */
  readonly collectionPrefix: string | undefined;
}

/** The shared resources of nlq's processes, read by `loadServiceSettings`. */
export interface ServiceSettings {
  /** `DATABASE_URL`: the user's PostgreSQL (the commands check its form). Default: unset. */
  readonly databaseUrl: string | undefined;
  /** `NLQ_DEMO_URL`: where `nlq demo load` writes (before `DATABASE_URL`). Default: unset. */
  readonly demoUrl: string | undefined;
  /** `NLQ_HOME`: the folder holding `.nlq/` (embedded PostgreSQL, state). Default: unset (the current directory). */
  readonly home: string | undefined;
  /** `NLQ_METADATA_URL`: PostgreSQL URL of the metadata store. Default: unset (the embedded PostgreSQL's `nlq_metadata`). */
  readonly metadataUrl: string | undefined;
  /** `NLQ_MIGRATIONS_DIR`: the metadata store's migrations folder. Default: unset (the repository's `migrations/`). */
  readonly migrationsDirectory: string | undefined;
  /**
   * `NLQ_RESPONSE_CACHE_TTL`, in seconds: how long a cached model response is replayed after it was written; older rows
   * are misses and are pruned. `null`: never expires (`never`). Default 7 days (`modelCacheTimeToLiveVariable`).
   */
  readonly modelCacheTimeToLiveSeconds: number | null;
  /** `NLQ_QDRANT_*`: the Qdrant vector store. */
  readonly qdrant: QdrantSettings;
  /**
   * `NLQ_WEB_EXAMPLE_ADMIN_ROLE`: members of this PostgreSQL role (and superusers) are administrators: what they verify
   * in the web app is shared with every role, they edit and delete shared examples, and `nlq log` lists every role's
   * entries for them. `none`: superusers only. Default `nlq_example_admin`.
   */
  readonly webExampleAdministratorRole: string;
}

/** The shared settings out of an environment parsed with `serviceVariables` (and maybe a process's own). */
export function serviceSettingsFrom(values: ParsedEnvironment<typeof serviceVariables>): ServiceSettings {
  return {
    databaseUrl: values.DATABASE_URL,
    demoUrl: values.NLQ_DEMO_URL,
    home: values.NLQ_HOME,
    metadataUrl: values.NLQ_METADATA_URL,
    migrationsDirectory: values.NLQ_MIGRATIONS_DIR,
    modelCacheTimeToLiveSeconds: values.NLQ_RESPONSE_CACHE_TTL,
    qdrant: {
      url: values.NLQ_QDRANT_URL,
      apiKey: values.NLQ_QDRANT_API_KEY,
      collectionPrefix: values.NLQ_QDRANT_COLLECTION_PREFIX,
    },
    webExampleAdministratorRole: values.NLQ_WEB_EXAMPLE_ADMIN_ROLE,
  };
}

/**
 * Reads and validates the shared variables, the pipeline's too (as `loadSettings` does), in one pass: empty strings
 * count as unset, and one `ConfigurationError` names each bad variable.
 */
export function loadServiceSettings(environment: Readonly<Record<string, string | undefined>>): ServiceSettings {
  return serviceSettingsFrom(parseEnvironment(environment, serviceVariables));
}
