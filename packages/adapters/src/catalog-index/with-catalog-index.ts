import type { Answer, AnswerQuestionOptions, LlmResponseCache } from "@nlq/engine";
import { runReadOnly } from "@nlq/engine";
import type { QdrantSettings } from "../config/service-settings";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { BackgroundValueIndexes } from "../value-index/background-value-index";
import { backgroundIndexKey, connectBackground } from "../value-index/connect-background";
import { prepareIndexedQuestion } from "./prepare-indexed-question";

export interface WithCatalogIndexOptions {
  /** The metadata store `nlq index` wrote to. */
  readonly store: { readonly database: MetadataDatabase };
  /**
   * The upstream server as a URL (`postgresql://host:port`); each question's database and role are read from its
   * session (`current_database()`, `current_user`) to find the data source.
   */
  readonly upstreamUrl: string;
  /**
   * Qdrant of the description vectors (`loadServiceSettings(environment).qdrant`). Default: none (vectors embedded in
   * the metadata store). The other retrieval settings come from each question's `settings`.
   */
  readonly qdrant?: QdrantSettings;
  /** Responses of earlier identical model calls (the metadata store's `llmCache`). Default: none. */
  readonly llmCache?: LlmResponseCache;
  /**
   * Value indexes built in the background for databases nobody indexed (one per database and role, over a connection
   * of their own to `upstreamUrl` as the asking role). Default: one set for the whole process (the web app wraps
   * `answerQuestion` per request: each database and role is still built once); `false` turns the background build off
   * (the live lookup alone).
   */
  readonly backgroundValueIndexes?: BackgroundValueIndexes | false;
}

/** The background value indexes of this process, shared by every `withCatalogIndex` without its own. */
const processValueIndexes = new BackgroundValueIndexes();

/**
 * Wraps `answerQuestion` for servers (the proxy, the web app): each question uses the catalog index of its database
 * when there is one (indexed catalog restricted to the asking role + CHESS selector for large catalogs), and live
 * introspection otherwise — also when looking the index up fails, so the index can never turn an answer into an error.
 * A caller-supplied `catalog` or `schemaSelector` wins.
 */
export function withCatalogIndex(
  answer: (options: AnswerQuestionOptions) => Promise<Answer>,
  options: WithCatalogIndexOptions,
): (options: AnswerQuestionOptions) => Promise<Answer> {
  const backgroundIndexes =
    options.backgroundValueIndexes === false ? undefined : (options.backgroundValueIndexes ?? processValueIndexes);
  return async (answerOptions) => {
    const cache = options.llmCache && !answerOptions.llmCache ? { llmCache: options.llmCache } : {};
    if (answerOptions.catalog || answerOptions.schemaSelector) return answer({ ...cache, ...answerOptions });
    let indexed = {};
    try {
      const identity = await runReadOnly(
        {
          session: answerOptions.session,
          transactionStatus: answerOptions.transactionStatus ?? "idle",
          statementTimeoutMilliseconds: 5_000,
          abortSignal: answerOptions.abortSignal,
        },
        // Qualified: the asking role controls its search path and could shadow current_database() to pick another index.
        (query) => query("SELECT pg_catalog.current_database(), current_user"),
      );
      const [database, user] = identity.rows[0] ?? [];
      if (database && user) {
        const url = new URL(options.upstreamUrl);
        url.pathname = `/${encodeURIComponent(database)}`;
        url.username = encodeURIComponent(user);
        url.password = "";
        indexed = await prepareIndexedQuestion({
          store: options.store,
          url: url.toString(),
          session: answerOptions.session,
          transactionStatus: answerOptions.transactionStatus,
          settings: answerOptions.settings,
          qdrant: options.qdrant,
          ...(backgroundIndexes
            ? {
                backgroundValueIndex: {
                  indexes: backgroundIndexes,
                  key: backgroundIndexKey(url.toString()),
                  connect: () => connectBackground(url.toString()),
                },
              }
            : {}),
        });
      }
    } catch {
      // No usable index (or the session cannot run the lookup now): answer from live introspection.
    }
    return answer({ ...indexed, ...cache, ...answerOptions });
  };
}
