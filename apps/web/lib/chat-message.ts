import type { ConfirmedReading } from "@nlq/engine";
import type { UIMessage } from "ai";

/**
 * The shape of chat messages between the route handler and the page: AI SDK UI messages whose
 * assistant replies carry typed data parts (`data-step`, `data-answer`, `data-error`).
 */

/** Most earlier turns passed to the pipeline as conversation context (and sent back by the browser). */
export const maximumPreviousTurns = 6;

/** State of one pipeline step as the page shows it. */
export type StepStatus = "running" | "done" | "failed";

/** One line of the live progress list. Parts with the same id replace each other (running → done). */
export interface StepData {
  readonly label: string;
  readonly status: StepStatus;
  readonly detail?: string;
}

/** A column of the answer's result: its name and PostgreSQL type OID. */
export interface AnswerField {
  readonly name: string;
  readonly dataTypeId: number;
}

/** The answer to one question, as plain JSON. */
export interface AnswerData {
  readonly question: string;
  readonly sql: string;
  readonly fields: readonly AnswerField[];
  /** Values in PostgreSQL's text format; null is SQL NULL. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** True when a cap cut the result. */
  readonly truncated: boolean;
  /** Which cap: the row limit or the byte limit. Absent when not cut (or from an older answer). */
  readonly truncatedBy?: "rows" | "bytes";
  /** How sure the selection is, 0..1 (`Answer.confidence`); absent when one candidate was written. */
  readonly confidence?: number;
  /** How the confidence was computed (`Answer.selection.basis`); absent in answers stored before it existed. */
  readonly confidenceBasis?: string;
  /** Distinct results among the candidates that ran; absent in answers stored before it existed. */
  readonly clusters?: number;
  readonly model: { readonly id: string; readonly scripted: boolean };
  readonly explanation?: string;
  /**
   * One plain-language sentence answering the question (`Answer.summary`): plain text, shown as text above the result,
   * labelled when `scripted`. Absent when the preset does not write one or its model call failed.
   */
  readonly summary?: { readonly sentence: string; readonly model: string; readonly scripted: boolean };
  readonly elapsedMilliseconds: number;
  readonly candidates: number;
  readonly languageModelCalls: number;
  /**
   * The readings of the question when the candidates' results differ (`Answer.interpretations`), #1 the one shown:
   * offered as buttons that run another reading. Absent when they agreed.
   */
  readonly interpretations?: readonly InterpretationData[];
  /** True when the evidence leaves the choice open (no clear majority): the page asks which reading was meant. */
  readonly needsChoice?: boolean;
  /** Why `needsChoice` is what it is (`Answer.choiceBasis`). */
  readonly choiceBasis?: string;
  /**
   * The knowledge entries that reached the answer's prompts (`Answer.knowledgeUsed`): kind and name, shown under the
   * answer with a link to the knowledge page. Absent when none did (or in answers stored before it existed).
   */
  readonly knowledgeUsed?: readonly KnowledgeUsedData[];
}

/** One knowledge entry an answer used: its id, kind and name (the entry itself is on the knowledge page). */
export interface KnowledgeUsedData {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
}

/** One reading of a question: its SQL, how many candidates returned its result, how it differs from #1 (computed). */
export interface InterpretationData {
  readonly number: number;
  readonly chosen: boolean;
  readonly sql: string;
  readonly support: number;
  /** The candidates written (`support` is out of these). */
  readonly outOf: number;
  readonly difference: string;
  /**
   * The reading of a phrase in doubt its candidates followed (`Interpretation.reading`): what "Use this from now on"
   * stores as a knowledge entry. Absent when the candidates merely disagreed.
   */
  readonly reading?: ConfirmedReading;
}

/**
 * What happened, when the page words it itself (error-data.ts): the question is over the length limit, the sign-in
 * session ended, no language model is configured, the model refused or failed, the scripted demo has no recorded
 * answer for the question.
 */
export type ErrorReason =
  | "too-long"
  | "session-ended"
  | "model-not-configured"
  | "model-refused"
  | "model-failed"
  | "not-recorded";

/** A failed question: the SQLSTATE, the error class and a message safe to show. */
export interface ErrorData {
  readonly code: string;
  readonly name: string;
  readonly message: string;
  readonly reason?: ErrorReason;
  /** `too-long`: the question's length and the limit, in characters. */
  readonly length?: number;
  readonly limit?: number;
  readonly sql?: string;
  readonly detail?: string;
  readonly hint?: string;
}

/** The thread this conversation is kept in (sent once the first question created it). */
export interface ThreadData {
  readonly id: string;
  readonly title: string;
}

/** The stored turn of a reply: its id is what thumbs up/down refer to. */
export interface TurnData {
  readonly id: string;
  /** The user's feedback so far (a reopened thread). */
  readonly feedback?: "up" | "down" | null;
}

export type NlqDataParts = {
  step: StepData;
  answer: AnswerData;
  error: ErrorData;
  thread: ThreadData;
  turn: TurnData;
};

export type NlqUIMessage = UIMessage<unknown, NlqDataParts>;

/** A `data-step` chunk as the route handler writes it. */
export interface StepPart {
  readonly type: "data-step";
  readonly id: string;
  readonly data: StepData;
}
