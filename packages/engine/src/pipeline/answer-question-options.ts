import type { Catalog } from "../catalog/catalog-types";
import type { Settings } from "../config/settings";
import type { ConversationTurn, QueryLog, VerifiedExample } from "../contract/answer";
import type { PipelineEventListener } from "../contract/events";
import type { KnowledgeEntry } from "../contract/knowledge";
import type { QueryExecutor, TransactionStatus } from "../database/query-executor";
import type { LlmResponseCache } from "../llm/llm-response-cache";
import type { ResolvedModel } from "../models/resolve-model";
import type { SchemaSelector } from "./schema-selector";

/**
 * The contract every entry point (proxy, web, CLI) uses to answer a question.
 * Implemented by `answerQuestion` in `answer-question.ts`.
 */
export interface AnswerQuestionOptions {
  readonly question: string;
  /** Optional hint or evidence from the user (BIRD-style). */
  readonly hint?: string;
  /** Earlier turns of the same conversation, oldest first, shown to the generator for follow-ups. Default: none. */
  readonly previousTurns?: readonly ConversationTurn[];
  /**
   * Verified question–SQL pairs of this data source, most similar to the question first (the caller retrieves them),
   * shown to every generator as demonstrations. Default: none.
   */
  readonly verifiedExamples?: readonly VerifiedExample[];
  /**
   * The knowledge entries of this data source the asking role may be shown (its own and administrators' shared ones:
   * the composition loads them). The pipeline keeps those whose every table and column the role may read (checked
   * against the catalog, which holds only what it may read), applies the descriptions to the schema, retrieves the
   * terms, metrics, rules and readings that fit the question and puts them in the generators', fixer's and selection
   * agent's prompts; `Answer.knowledgeUsed` lists what reached them. The reading step follows the confirmed readings
   * among them: one that matches a phrase in doubt decides it instead of asking (rule 5 of
   * docs/decisions/2026-12-01-readings-knowledge-and-teaching.md). Default: none.
   */
  readonly knowledge?: readonly KnowledgeEntry[];
  /**
   * The asking user's own database session. Every statement of the pipeline (introspection, candidate
   * execution, the final answer) runs on it, inside a transaction PostgreSQL keeps read-only, so the
   * user's privileges apply and the session is unchanged afterwards.
   */
  readonly session: QueryExecutor;
  /** The session's transaction state before the question (default `idle`). */
  readonly transactionStatus?: TransactionStatus;
  /**
   * Resolved configuration (`loadSettings(process.env)`): models per step, timeouts, row and byte caps, allowed
   * functions.
   */
  readonly settings: Settings;
  /** Where the trace of this question is stored (metadata store's query log); optional. */
  readonly queryLog?: QueryLog;
  /** Progress events, in order. */
  readonly onEvent?: PipelineEventListener;
  /** Aborts model calls and SQL when the client cancels or disconnects. */
  readonly abortSignal?: AbortSignal;
  /** Which entry point asks, recorded in the query log: `proxy`, `web`, `cli`. Default `cli`. */
  readonly origin?: string;
  /**
   * A catalog already known for this session's role (e.g. from the index), used instead of live introspection.
   * It must contain only what the asking role may read. Default: introspect on the session.
   */
  readonly catalog?: Catalog;
  /** Optional schema-subsetting stage between catalog and generation. Default: the whole catalog. */
  readonly schemaSelector?: SchemaSelector;
  /**
   * Model of each step, e.g. a `MockLanguageModelV3` in tests.
   * Default: from `settings` (`NLQ_MODEL_<STEP>`, then `NLQ_MODEL`) via `resolveStepModel`.
   */
  readonly resolveModel?: (step: string) => ResolvedModel;
  /**
   * Responses of earlier identical model calls (model, prompt, parameters, sample), consulted before every call of a
   * real model: re-running a question or an evaluation costs nothing. Default: none.
   */
  readonly llmCache?: LlmResponseCache;
}
