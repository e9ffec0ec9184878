import { existsSync } from "node:fs";
import path from "node:path";
import { type Answer, type AnswerQuestionOptions, answerQuestion } from "@nlq/engine";
import type { QdrantSettings, ServiceSettings } from "../config/service-settings";
import { nlqStateDirectory } from "../metadata/nlq-home";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { prepareIndexedQuestion, prepareUnindexedQuestion } from "./prepare-indexed-question";

export interface AskQuestionOptions
  extends Omit<AnswerQuestionOptions, "catalog" | "schemaSelector" | "queryLog" | "llmCache"> {
  /**
   * The metadata store (`openQuestionMetadataStore`): its catalog index for the database when `nlq index` built one,
   * its query log and its model-response cache. Default: none (live introspection, nothing logged).
   */
  readonly metadataStore?: MetadataStore;
  /** URL of the database as the asking role (identifies the indexed data source; its password is never stored). */
  readonly url: string;
  /** Qdrant of the description vectors (`loadServiceSettings(environment).qdrant`). Default: none. */
  readonly qdrant?: QdrantSettings;
}

/**
 * Answers one question the way `nlq ask` does, for every one-role entry point (the CLI, the MCP server): the catalog
 * index of the database when the metadata store has one (indexed catalog restricted to the asking role, CHESS selector
 * on large catalogs), otherwise live introspection with the live value lookup; the question recorded in the store's
 * query log and model responses looked up in its cache.
 */
export async function askQuestion(options: AskQuestionOptions): Promise<Answer> {
  const { metadataStore, url, qdrant, ...answerOptions } = options;
  const { session, transactionStatus, settings } = answerOptions;
  const prepared = metadataStore
    ? await prepareIndexedQuestion({ store: metadataStore, url, session, transactionStatus, settings, qdrant })
    : prepareUnindexedQuestion({ session, transactionStatus, settings });
  return answerQuestion({
    ...prepared,
    ...answerOptions,
    ...(metadataStore ? { queryLog: metadataStore.queryLog, llmCache: metadataStore.llmCache } : {}),
  });
}

/**
 * Opens the metadata store `nlq index` writes to: `NLQ_METADATA_URL`, else the embedded PostgreSQL in
 * `$NLQ_HOME/.nlq/postgres` — only when that directory exists (a one-off question creates no state). While
 * `nlq start` runs it is shared; otherwise it is started for this process. A store that cannot be opened is
 * reported through `warn` and `undefined` is returned: questions are then answered from live introspection, unlogged.
 */
export async function openQuestionMetadataStore(
  service: ServiceSettings,
  warn: (message: string) => void,
): Promise<MetadataStore | undefined> {
  if (service.metadataUrl === undefined && !existsSync(path.join(nlqStateDirectory(service.home), "postgres")))
    return undefined;
  try {
    return await openMetadataStore({ settings: service });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn(`cannot open the metadata store, answering from live introspection, not logged: ${reason}`);
    return undefined;
  }
}
