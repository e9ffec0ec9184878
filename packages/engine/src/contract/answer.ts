import type { QueryResult } from "../database/query-executor";
import type { TruncationReason } from "../database/read-only-session";
import type { LlmCallRecord } from "./events";
import type { Interpretation } from "./interpretation";
import type { KnowledgeUsed } from "./knowledge";
import type { FollowedConfirmation, QuestionReading } from "./reading";

/**
 * A question–SQL pair a person verified for this data source (accepted or corrected in the web app), shown to the
 * generators as a few-shot demonstration.
 */
export interface VerifiedExample {
  readonly question: string;
  readonly sql: string;
}

/** One earlier question of a conversation and the SQL that answered it. */
export interface ConversationTurn {
  readonly question: string;
  readonly sql?: string;
}

/** One generated candidate and what happened to it. */
export interface CandidateRecord {
  readonly generator: string;
  /** Which sample of its generator it is (0, 1, …). */
  readonly sample: number;
  /** Its final SQL (after the fixer), or the SQL that failed. */
  readonly sql: string;
  readonly revisions: number;
  readonly ok: boolean;
  readonly error?: string;
  readonly rows?: number;
  /** The earlier candidate whose SQL this one repeated (normalised): it was not run again and shares its result. */
  readonly duplicateOf?: number;
  /** Index of its execution cluster in `Answer.selection.clusters` order (absent when it did not run). */
  readonly cluster?: number;
  /** The reading (`Answer.readings`' number) it was written for; absent when the question had one reading. */
  readonly reading?: number;
}

/** How the answer was chosen among the candidates. */
export interface SelectionSummary {
  /** The selector that chose (`self-consistency`, `pairwise`, …), or `single` when all candidates that ran agreed. */
  readonly selector: string;
  /** Candidates written (failed ones included). */
  readonly candidates: number;
  /** Candidates that ran (duplicates included). */
  readonly executed: number;
  /** Distinct results among them. */
  readonly clusters: number;
  /** The chosen cluster's index (clusters are ordered largest first). */
  readonly chosenCluster: number;
  /** How `Answer.confidence` was computed, or why there is none. */
  readonly basis: string;
}

export interface Answer {
  readonly question: string;
  /** The chosen SQL, as executed. */
  readonly sql: string;
  /** Rows of the chosen SQL (capped at the configured row limit). */
  readonly result: QueryResult;
  /** True when a cap cut the result. */
  readonly truncated: boolean;
  /**
   * Which cap cut it: `rows` (`NLQ_ROW_LIMIT`) or `bytes` (`NLQ_RESULT_BYTE_LIMIT`, the statement was cancelled).
   * Undefined when nothing was cut.
   */
  readonly truncatedBy?: TruncationReason;
  /**
   * How sure the selection is, in [0, 1], computed from what it saw (`selection.basis` says how: the chosen cluster's
   * share of candidates, or the pairwise selection agent's win rate, …). Absent when a single candidate was written:
   * there was nothing to compare, so no figure is shown.
   */
  readonly confidence?: number;
  readonly selection: SelectionSummary;
  /**
   * The readings of the question when the candidates' results split into more than one cluster: each with its SQL,
   * support, first rows (as executed under the asking role) and a computed line saying how it differs from the
   * chosen one, the chosen one first (#1). Absent when the candidates that ran agreed (or on answers made before
   * interpretations existed). `answerWithInterpretation` turns a picked one into an answer.
   */
  readonly interpretations?: readonly Interpretation[];
  /**
   * True when the evidence leaves the choice open (`choiceBasis` says why; `NLQ_ASK_WHEN_SUPPORT_BELOW`): surfaces
   * show the chosen rows and ask which interpretation is meant. False when there is nothing to ask.
   */
  readonly needsChoice?: boolean;
  /** Why `needsChoice` is what it is. */
  readonly choiceBasis?: string;
  /**
   * The readings the reading step found for a phrase the schema shows in doubt, each with its own candidates
   * (`CandidateRecord.reading`); absent when the question had one reading. Readings that returned the same rows share
   * one interpretation (or none), and nothing is asked.
   */
  readonly readings?: readonly QuestionReading[];
  /**
   * Confirmed readings that decided a phrase before generation (whose, when, what was set aside): the answer followed
   * them instead of asking. Absent when none applied.
   */
  readonly followedConfirmations?: readonly FollowedConfirmation[];
  /** The model that generated the SQL (`provider:model`) and whether it was a scripted replay. */
  readonly model: { readonly id: string; readonly scripted: boolean };
  /** The model's reasoning or assumptions, short. */
  readonly explanation?: string;
  /**
   * One plain-language sentence answering the question from the result (the `summarize-answer` step). Absent when the
   * preset switches the step off, its budget was spent or its call failed: no other text stands in for it.
   */
  readonly summary?: AnswerSummary;
  /**
   * The knowledge entries that reached the prompts: the terms, metrics, rules and confirmed readings retrieved for the
   * question, then the descriptions of the tables and columns the generators were shown. Absent when none did.
   */
  readonly knowledgeUsed?: readonly KnowledgeUsed[];
  readonly candidates: readonly CandidateRecord[];
  readonly calls: readonly LlmCallRecord[];
  readonly elapsedMilliseconds: number;
}

/**
 * The `summarize-answer` step's sentence. Model output, so hostile text: plain text (no control or bidirectional
 * formatting characters, whitespace collapsed), trimmed, at most `maxAnswerSentenceLength` characters; surfaces show
 * it as text, never as HTML or markup, and label it when `scripted`.
 */
export interface AnswerSummary {
  readonly sentence: string;
  /** The model that wrote it (`provider:model`; it may differ from `Answer.model` through `stepModels`). */
  readonly model: string;
  /** True when the sentence is a scripted replay of a recorded response, not a language model's. */
  readonly scripted: boolean;
}

/** Receives one finished (or failed) question with its full trace. Implemented by the metadata store. */
export interface QueryLog {
  record(entry: QueryLogEntry): Promise<void>;
}

export interface QueryLogEntry {
  readonly question: string;
  readonly sql: string | null;
  readonly ok: boolean;
  readonly error?: { readonly code: string; readonly message: string };
  readonly confidence: number | null;
  readonly rows: number | null;
  readonly model: string | null;
  readonly scripted: boolean;
  readonly candidates: readonly CandidateRecord[];
  readonly calls: readonly LlmCallRecord[];
  readonly elapsedMilliseconds: number;
  /** Which entry point asked: `proxy`, `web`, `cli`. */
  readonly origin: string;
}
