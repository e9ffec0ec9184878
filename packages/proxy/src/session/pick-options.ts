import type { Answer, AnswerWithInterpretationOptions } from "@nlq/engine";
import type { WireNotice } from "../protocol/backend-messages";

/**
 * A pick of one interpretation of the connection's last answer (`question` is that answer's, for the audit trail);
 * `remember` when the client wrote `/* nl#2 remember *\/;` (confirm it as what it means from now on).
 */
export type PickOptions = AnswerWithInterpretationOptions & {
  readonly question: string;
  readonly remember?: boolean;
};

/** A pick's answer and what the proxy says about it besides (what a confirmation stored, or why nothing was). */
export interface PickedAnswer {
  readonly answer: Answer;
  /** NOTICEs or WARNINGs sent before the answer's own. Default none. */
  readonly notices?: readonly WireNotice[];
}
