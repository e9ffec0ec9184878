import type { StepContext } from "../llm/step-context";
import type { ConversationTurn } from "../pipeline/answer";

export interface GenerateCandidateOptions {
  /** The schema shown to the model (rendered DDL of the selected catalog). */
  readonly schema: string;
  readonly context: StepContext;
  /** Earlier turns of the conversation. Default: none. */
  readonly previousTurns?: readonly ConversationTurn[];
}

export interface GeneratedCandidate {
  readonly sql: string;
  readonly reasoning: string;
}

/** A way to write candidate SQL (CHESS one-shot, CHASE divide-and-conquer, query plan, …). */
export interface CandidateGenerator {
  readonly name: string;
  /** Throws `UnanswerableQuestionError` when the model judged the question unanswerable. */
  generate(options: GenerateCandidateOptions): Promise<GeneratedCandidate>;
}
