"use client";

import type { ErrorData } from "../lib/chat-message";
import { SqlBlock } from "./sql-block";

/** Human titles for the SQLSTATEs the pipeline uses; others show PostgreSQL's own message. */
const titles: Record<string, string> = {
  "55000": "No language model is configured",
  "22023": "This question cannot be answered from this database",
  "57014": "The question was cancelled",
  "58000": "The language model call failed",
  F0000: "The configuration is invalid",
  "08001": "The database cannot be reached",
  XX000: "Something went wrong",
};

/** A failed question: what happened, its SQLSTATE, and the SQL when there was one. */
export interface ErrorViewProps {
  readonly error: ErrorData;
  /** Offers "Retry" (the same question again). */
  readonly onRetry?: () => void;
  /** Offers "Rephrase" (the question back into the box). */
  readonly onRephrase?: () => void;
}

export function ErrorView({ error, onRetry, onRephrase }: ErrorViewProps) {
  const title = titles[error.code] ?? (error.sql ? "The SQL failed" : "The question failed");
  return (
    <div className="error-box" role="alert">
      <p className="error-title">
        {title} <span className="sqlstate">SQLSTATE {error.code}</span>
      </p>
      <p className="error-message">{error.message}</p>
      {error.detail ? <p className="error-extra">Detail: {error.detail}</p> : null}
      {error.hint ? <p className="error-extra">Hint: {error.hint}</p> : null}
      {error.sql ? <SqlBlock sql={error.sql} label="SQL that failed" /> : null}
      {onRetry || onRephrase ? (
        <div className="answer-actions">
          {onRetry ? (
            <button type="button" className="button button-secondary" onClick={onRetry}>
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
