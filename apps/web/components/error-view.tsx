"use client";

import type { ErrorData, ErrorReason } from "../lib/chat-message";
import { SqlBlock } from "./sql-block";

/** Human titles for the SQLSTATEs the pipeline uses; others show PostgreSQL's own message. */
const titles: Record<string, string> = {
  "55000": "No language model is configured",
  "22023": "This question cannot be answered from this database",
  "57014": "The question was cancelled",
  "58000": "The language model call failed",
  "54000": "The question is too long",
  "28000": "Your session has ended",
  F0000: "The configuration is invalid",
  "08001": "The database cannot be reached",
  XX000: "Something went wrong",
};

const reasonTitles: Record<ErrorReason, string> = {
  "too-long": "The question is too long",
  "session-ended": "Your session has ended",
  "model-not-configured": "No language model is configured",
  "model-refused": "The language model declined to answer",
  "model-failed": "The language model did not answer",
  "not-recorded": "No recorded answer for this question",
};

/** Failures that asking the same question again cannot mend: no Retry for them. */
const cannotSucceedAgain = new Set<ErrorReason>([
  "too-long",
  "session-ended",
  "model-not-configured",
  "model-refused",
  "not-recorded",
]);

/** Whether "Retry" (the same question again) could give another outcome. */
function retryMaySucceed(error: ErrorData): boolean {
  if (error.reason !== undefined) return !cannotSucceedAgain.has(error.reason);
  return !["54000", "55000", "F0000", "42501"].includes(error.code) && !error.code.startsWith("28");
}

/** A failed question: what happened, its SQLSTATE, and the SQL when there was one. */
export interface ErrorViewProps {
  readonly error: ErrorData;
  /** Offers "Retry" (the same question again) when it could succeed. */
  readonly onRetry?: () => void;
  /** Offers "Rephrase" (the question back into the box). */
  readonly onRephrase?: () => void;
  /** The scripted demo's recorded questions, offered when the question is not one of them. */
  readonly recordedQuestions?: readonly string[];
  /** Asks one of the recorded questions. */
  readonly onAsk?: (question: string) => void;
}

export function ErrorView({ error, onRetry, onRephrase, recordedQuestions = [], onAsk }: ErrorViewProps) {
  const title =
    (error.reason ? reasonTitles[error.reason] : undefined) ??
    titles[error.code] ??
    (error.sql ? "The SQL failed" : "The question failed");
  const retry = onRetry && retryMaySucceed(error) ? onRetry : undefined;
  return (
    <div className="error-box" role="alert">
      <p className="error-title">
        {title} <span className="sqlstate">SQLSTATE {error.code}</span>
      </p>
      <p className="error-message">{error.message}</p>
      {error.detail ? <p className="error-extra">Detail: {error.detail}</p> : null}
      {error.hint ? <p className="error-extra">Hint: {error.hint}</p> : null}
      {error.sql ? <SqlBlock sql={error.sql} label="SQL that failed" /> : null}
      {error.reason === "not-recorded" && recordedQuestions.length > 0 ? (
        <ul className="suggestions recorded-questions" aria-label="Recorded questions">
          {recordedQuestions.map((question) => (
            <li key={question}>
              <button type="button" className="chip" disabled={onAsk === undefined} onClick={() => onAsk?.(question)}>
                {question}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error.reason === "session-ended" ? (
        <div className="answer-actions">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Sign in again
          </button>
        </div>
      ) : retry || onRephrase ? (
        <div className="answer-actions">
          {retry ? (
            <button type="button" className="button button-secondary" onClick={retry}>
              Retry
            </button>
          ) : null}
          {onRephrase ? (
            <button type="button" className="button button-secondary" onClick={onRephrase}>
              Rephrase
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
