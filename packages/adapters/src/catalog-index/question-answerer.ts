import type { Answer, AnswerQuestionOptions, LlmResponseCache, QueryLog } from "@nlq/engine";
import { answerQuestion } from "@nlq/engine";
import { dataSourceKey } from "../audit/data-source-key";
import type { QdrantSettings } from "../config/service-settings";
import type { MetadataLlmCache } from "../metadata/llm-cache-store";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { RecordingLlmCache } from "../metadata/recording-llm-cache";
import { BackgroundValueIndexes } from "../value-index/background-value-index";
import { backgroundIndexKey, connectBackground } from "../value-index/connect-background";
import { askingRoleUrl } from "./asking-role-url";
import { type IndexedQuestion, prepareIndexedQuestion, prepareUnindexedQuestion } from "./prepare-indexed-question";
import { type TaughtForQuestion, taughtForQuestion } from "./taught-for-question";

interface QuestionAnswererSettings {
  /**
   * The metadata store `nlq index` writes to: each question uses the catalog index of its database when there is one
   * (the indexed catalog restricted to the asking role; the CHESS selector over its value index and description
   * vectors on large catalogs), and what was taught for the asking role on that database — the verified examples most
   * similar to the question that it may be shown, and the knowledge entries it may see (`taughtForQuestion`). Default:
   * none (live introspection, nothing taught).
   */
  readonly store?: { readonly database: MetadataDatabase };
  /** Qdrant of the description vectors (`loadServiceSettings(environment).qdrant`). Default: none (in the store). */
  readonly qdrant?: QdrantSettings;
  /** Where questions are logged (the store's `queryLog`), unless a question brings its own. Default: not logged. */
  readonly queryLog?: QueryLog;
  /**
   * Responses of earlier identical model calls (the store's `llmCache`), unless a question brings its own. When it is
   * the metadata store's (`MetadataLlmCache`), each answer is linked to the responses it was made of, by data source,
   * role and question (`linkAnswer`), so feedback on the answer can evict them (`evictAnswer`). Default: none.
   */
  readonly llmCache?: LlmResponseCache;
  /**
   * Value indexes built in the background for databases nothing is indexed for (one per database and role, over a
   * connection of its own as the asking role; questions use the bounded live lookup until one is ready): `true` for
   * the set this process shares (a server that composes per request still builds each database and role once), or a
   * set of the caller's. Needs the asking role's URL (`url`, or `upstreamUrl` and the session). Default: none (the
   * live lookup alone: a one-question process would never see a build finish).
   */
  readonly backgroundValueIndexes?: BackgroundValueIndexes | boolean;
  /**
   * Told why the index could not be used when looking it up failed; the question goes on without it (unless this
   * throws, as a benchmark of the index path does). Default: ignored.
   */
  readonly onIndexError?: (error: unknown) => void;
  /**
   * Told why the verified examples or knowledge could not be looked up; the question goes on without them (unless
   * this throws). Default: ignored.
   */
  readonly onTeachingError?: (error: unknown) => void;
  /** The pipeline. Default: the engine's `answerQuestion` (tests observe what the composition hands it). */
  readonly answerQuestion?: (options: AnswerQuestionOptions) => Promise<Answer>;
}

/**
 * Who asks, by one of: `url`, the database as the asking role, for the one-role callers (`nlq ask`, the MCP server,
 * `nlq eval`, the benchmarks; its password is never stored); or `upstreamUrl`, the server (`postgresql://host:port`),
 * for servers whose questions come from many roles (the proxy, the web app): each question's database and role are
 * then read from its own session. Without either, neither the index nor a background build is used.
 */
export type QuestionAnswererOptions = QuestionAnswererSettings &
  (
    | {
        readonly url?: string;
        readonly upstreamUrl?: undefined;
        /**
         * Whether a background build's connection may take a password `url` lacks from where node-postgres looks
         * (`PGPASSWORD`, `~/.pgpass`; `connectBackground`'s `ambientCredentials`): only for a caller that opened the
         * asking session itself from `url` and those same sources (`nlq eval`, `nlq mcp` over stdio). Never with
         * `upstreamUrl`: a server's asking roles were authenticated by their clients, not by the runner's secrets.
         * Default false: the URL's own password or none.
         */
        readonly ambientCredentials?: boolean;
      }
    | { readonly upstreamUrl: string; readonly url?: undefined; readonly ambientCredentials?: false }
  );

/** The part of a question that `prepare` reads: its session and settings. */
export type PreparedQuestionSession = Pick<
  AnswerQuestionOptions,
  "session" | "transactionStatus" | "settings" | "abortSignal"
>;

/** "Ask a question", composed once for every surface. */
export interface QuestionAnswerer {
  /**
   * Answers one question (`answerQuestion`'s options and answer) with the catalog and schema selector `prepare` gives,
   * the composition's query log and model cache; a question's own `catalog` or `schemaSelector` wins (nothing is
   * prepared), as do its own `queryLog` and `llmCache`.
   */
  readonly answer: (options: AnswerQuestionOptions) => Promise<Answer>;
  /**
   * What to spread into the pipeline for one question (`answerQuestion`, or `writeQuestionCandidates` for training
   * data): the catalog index when its database has one, and a selector that runs retrieval in every case — over the
   * index's values, else a background value index or the live lookup. Looking the index up never fails a question:
   * on any error (reported to `onIndexError`) it gets what a database nothing is indexed for gets.
   */
  readonly prepare: (question: PreparedQuestionSession) => Promise<IndexedQuestion>;
}

/** The background value indexes of this process, shared by every composition given `backgroundValueIndexes: true`. */
const processValueIndexes = new BackgroundValueIndexes();

/**
 * The one composition of "ask a question" (catalog index + value index + cache + `answerQuestion`) that `nlq ask`,
 * the MCP server, the proxy, the web app, `nlq eval`, `nlq selector-data` and the preset benchmark use:
 * `createQuestionAnswerer({ store, url, queryLog: store.queryLog, llmCache: store.llmCache }).answer({ question, session, settings })`.
 */
export function createQuestionAnswerer(options: QuestionAnswererOptions): QuestionAnswerer {
  const indexes =
    options.backgroundValueIndexes === true
      ? processValueIndexes
      : options.backgroundValueIndexes === false
        ? undefined
        : options.backgroundValueIndexes;
  const background = (url: string | undefined) =>
    indexes && url !== undefined
      ? {
          indexes,
          key: backgroundIndexKey(url),
          // Ambient credentials only ever for the caller's own `url`, never for a role read from a server's session.
          connect: () =>
            connectBackground(url, { ambientCredentials: options.ambientCredentials === true && url === options.url }),
        }
      : undefined;
  const pipeline = options.answerQuestion ?? answerQuestion;

  /** A server question's asking URL (its database and role, from its session): what `prepareAs` needs. */
  const serverAskingUrl = (question: PreparedQuestionSession): Promise<string | undefined> =>
    options.upstreamUrl !== undefined && (options.store || indexes)
      ? askingRoleUrl(options.upstreamUrl, question)
      : Promise.resolve(undefined);

  const prepareAs = async (
    question: PreparedQuestionSession,
    serverAsking: () => Promise<string | undefined>,
  ): Promise<IndexedQuestion> => {
    const { session, transactionStatus, settings } = question;
    let asking = options.url;
    try {
      if (asking === undefined) asking = await serverAsking();
      if (options.store && asking !== undefined) {
        return await prepareIndexedQuestion({
          store: options.store,
          url: asking,
          session,
          transactionStatus,
          settings,
          qdrant: options.qdrant,
          backgroundValueIndex: background(asking),
        });
      }
    } catch (error) {
      // No usable index (or the session cannot run the lookup now): answered as a database nothing is indexed for.
      options.onIndexError?.(error);
    }
    return prepareUnindexedQuestion({ session, transactionStatus, settings, backgroundValueIndex: background(asking) });
  };
  const prepare = (question: PreparedQuestionSession) => prepareAs(question, () => serverAskingUrl(question));

  /** The verified examples and knowledge of the asking role (`taughtForQuestion`); none without a store. */
  const taught = async (question: AnswerQuestionOptions, asking: string | undefined): Promise<TaughtForQuestion> => {
    if (!options.store || asking === undefined) return {};
    if (question.verifiedExamples !== undefined && question.knowledge !== undefined) return {};
    try {
      return await taughtForQuestion(options.store.database, asking, question);
    } catch (error) {
      if (question.abortSignal?.aborted) throw error;
      options.onTeachingError?.(error);
      return {};
    }
  };

  const answer = async (question: AnswerQuestionOptions): Promise<Answer> => {
    // Who asks, read once from the session (its database and current role): the index and the teaching both need it.
    let identity: Promise<string | undefined> | undefined;
    const identify = () => {
      const base = options.upstreamUrl ?? options.url;
      identity ??= base === undefined ? Promise.resolve(undefined) : askingRoleUrl(base, question);
      return identity;
    };
    const prepared =
      question.catalog || question.schemaSelector
        ? {}
        : await prepareAs(question, () =>
            options.upstreamUrl !== undefined && (options.store || indexes) ? identify() : Promise.resolve(undefined),
          );
    let taughtAs: string | undefined;
    if (options.store) {
      try {
        taughtAs = await identify();
      } catch (error) {
        if (question.abortSignal?.aborted) throw error;
        options.onTeachingError?.(error);
      }
    }
    const cache = question.llmCache ?? options.llmCache;
    const linkable = isLinkable(cache) ? cache : undefined;
    const recording = linkable ? new RecordingLlmCache(linkable) : undefined;
    const link = () => linkAnswer(linkable, recording, identify, question.question);
    try {
      const answered = await pipeline({
        ...question,
        ...prepared,
        ...(await taught(question, taughtAs)),
        queryLog: question.queryLog ?? options.queryLog,
        llmCache: recording ?? cache,
      });
      await link();
      return answered;
    } catch (error) {
      await link();
      throw error;
    }
  };

  return { answer, prepare };
}

/** The metadata store's cache (or one like it), which keeps which responses each answer was made of. */
function isLinkable(
  cache: LlmResponseCache | undefined,
): cache is Pick<MetadataLlmCache, "linkAnswer"> & LlmResponseCache {
  return cache !== undefined && typeof (cache as Partial<MetadataLlmCache>).linkAnswer === "function";
}

/**
 * Links the answer (its asking role's data source and role, and the question; failed ones too) to the cache keys its
 * model calls used. Never fails the question: without the link, feedback on it evicts nothing.
 */
async function linkAnswer(
  cache: Pick<MetadataLlmCache, "linkAnswer"> | undefined,
  recording: RecordingLlmCache | undefined,
  identify: () => Promise<string | undefined>,
  question: string,
): Promise<void> {
  if (!cache || !recording || recording.keys.length === 0) return;
  try {
    const asking = await identify();
    if (asking === undefined) return;
    const role = decodeURIComponent(new URL(asking).username);
    if (role === "") return;
    await cache.linkAnswer({ dataSource: dataSourceKey(asking), role, question }, recording.keys);
  } catch {
    // A broken cache never fails a question.
  }
}
