"use client";

import type { AnswerData } from "../lib/chat-message";
import { modelLabel } from "../lib/model-label";

/** A duration for people: `850 ms`, `2.2 s`. */
function duration(milliseconds: number): string {
  return milliseconds < 1_000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1_000).toFixed(1)} s`;
}

/**
 * Where the rows on screen come from. nlq's answer: the model, the confidence and its basis, the candidates and the
 * time from question to answer. Another reading picked under the answer: its number and that a candidate wrote it,
 * validated again and run as the user's role (not "your edited SQL": the user wrote nothing). The user's edited SQL:
 * that, and nothing of the model's provenance (its confidence, candidates and reasoning were about other SQL).
 */
export function AnswerProvenance({
  answer,
  edited,
  reading,
}: {
  readonly answer: AnswerData;
  readonly edited: boolean;
  /** The reading picked under the answer whose SQL is on screen: a candidate wrote it, not the user. */
  readonly reading?: number;
}) {
  if (edited && reading !== undefined) {
    const picked = answer.interpretations?.find((interpretation) => interpretation.number === reading);
    return (
      <div className="answer-meta" data-testid="provenance">
        <span className="badge">reading #{reading}</span>
        <span className="badge badge-quiet">
          a candidate's SQL{picked ? ` (${picked.support} of ${picked.outOf} candidates)` : ""}, validated again and run
          read-only as your role; not saved
        </span>
      </div>
    );
  }
  if (edited) {
    return (
      <div className="answer-meta" data-testid="provenance">
        <span className="badge badge-warning">your edited SQL</span>
        <span className="badge badge-quiet">written by you, run read-only as your role; not checked by nlq</span>
      </div>
    );
  }
  return (
    <div className="answer-meta" data-testid="provenance">
      {answer.model.scripted ? (
        <span className="badge badge-scripted" title="Recorded responses replayed for demos and tests">
          scripted replay — not a language model
        </span>
      ) : null}
      <span className="badge" title={modelLabel(answer.model.id)}>
        model <code>{modelLabel(answer.model.id)}</code>
      </span>
      {answer.confidence === undefined ? null : (
        <span className="badge" title={answer.confidenceBasis}>
          confidence {Math.round(answer.confidence * 100)}%
        </span>
      )}
      <span className="badge badge-quiet">
        {answer.candidates} {answer.candidates === 1 ? "candidate" : "candidates"}
        {answer.candidates > 1 && answer.clusters !== undefined
          ? ` · ${answer.clusters} ${answer.clusters === 1 ? "result" : "distinct results"}`
          : ""}{" "}
        · answered in {duration(answer.elapsedMilliseconds)}
      </span>
    </div>
  );
}
