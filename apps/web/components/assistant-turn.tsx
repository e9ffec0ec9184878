"use client";

import { memo } from "react";
import type { NlqUIMessage } from "../lib/chat-message";
import { AnswerView } from "./answer-view";
import { ErrorView } from "./error-view";
import { FeedbackButtons } from "./feedback-buttons";
import { StepList } from "./step-list";
import { SuggestionChips } from "./suggestion-chips";

/** An answer renders again only when its data changes (not when another turn streams or the busy state flips). */
const MemoisedAnswerView = memo(AnswerView);

/** One reply: the live steps, then the answer or the error. */
export interface AssistantTurnProps {
  readonly message: NlqUIMessage;
  /** The user pressed Stop during this reply. */
  readonly stopped?: boolean;
  /** Asks the same question again (absent while another question runs). */
  readonly onRetry?: (() => void) | undefined;
  /** Puts the question back into the box to reword it. */
  readonly onRephrase?: () => void;
  /** The scripted demo's recorded questions, offered when this question has no recorded answer. */
  readonly recordedQuestions?: readonly string[];
  /** Asks another question (absent while another question runs). */
  readonly onAsk?: (question: string) => void;
  /** Questions to ask next, offered under the answer (the latest answer only). */
  readonly followUps?: readonly string[];
}

export function AssistantTurn({
  message,
  stopped = false,
  onRetry,
  onRephrase,
  recordedQuestions,
  onAsk,
  followUps = [],
}: AssistantTurnProps) {
  const steps = message.parts.flatMap((part) =>
    part.type === "data-step" ? [{ id: part.id ?? part.data.label, ...part.data }] : [],
  );
  const answer = message.parts.find((part) => part.type === "data-answer");
  const error = message.parts.find((part) => part.type === "data-error");
  const turn = message.parts.find((part) => part.type === "data-turn");
  const finished = answer !== undefined || error !== undefined;
  return (
    <article className="turn turn-assistant" aria-label="Answer">
      {steps.length > 0 ? <StepList steps={steps} finished={finished} stopped={stopped && !finished} /> : null}
      {answer?.type === "data-answer" ? (
        <MemoisedAnswerView answer={answer.data} turnId={turn?.type === "data-turn" ? turn.data.id : undefined} />
      ) : null}
      {answer?.type === "data-answer" && turn?.type === "data-turn" ? (
        <FeedbackButtons turnId={turn.data.id} initial={turn.data.feedback ?? null} />
      ) : null}
      {answer?.type === "data-answer" && onRephrase ? (
        <button type="button" className="button button-secondary reword-question" onClick={onRephrase}>
          Edit the question
        </button>
      ) : null}
      {answer?.type === "data-answer" && followUps.length > 0 ? (
        <div className="follow-ups">
          <p className="follow-ups-title">Ask next</p>
          <SuggestionChips
            label="Follow-up questions"
            suggestions={followUps}
            disabled={onAsk === undefined}
            onPick={(question) => onAsk?.(question)}
          />
        </div>
      ) : null}
      {error?.type === "data-error" && !(stopped && error.data.code === "57014") ? (
        <ErrorView
          error={error.data}
          {...(onRetry ? { onRetry } : {})}
          {...(onRephrase ? { onRephrase } : {})}
          {...(recordedQuestions ? { recordedQuestions } : {})}
          {...(onAsk ? { onAsk } : {})}
        />
      ) : null}
      {stopped && answer === undefined ? (
        <p className="stopped" role="status">
          Stopped
        </p>
      ) : null}
    </article>
  );
}
