"use client";

import { planChart } from "../lib/chart-kind";
import type { AnswerData } from "../lib/chat-message";
import { modelLabel } from "../lib/model-label";
import { ResultChart } from "./result-chart";
import { ResultTable } from "./result-table";
import { SqlBlock } from "./sql-block";

/** An answered question: provenance first (model, confidence), then the SQL, a chart when it fits, the rows. */
export function AnswerView({ answer }: { readonly answer: AnswerData }) {
  const plan = planChart(answer.fields, answer.rows.length);
  return (
    <section className="answer" aria-label="Result">
      <div className="answer-meta">
        {answer.model.scripted ? (
          <span className="badge badge-scripted" title="Recorded responses replayed for demos and tests">
            scripted replay — not a language model
          </span>
        ) : null}
        <span className="badge" title={answer.model.id}>
          model <code>{modelLabel(answer.model.id)}</code>
        </span>
        {answer.confidence === undefined ? null : (
          <span className="badge" title={answer.confidenceBasis}>
            confidence {Math.round(answer.confidence * 100)}%
          </span>
        )}
        <span className="badge badge-quiet">
          {answer.candidates} {answer.candidates === 1 ? "candidate" : "candidates"}
          {answer.candidates > 1
            ? ` · ${answer.clusters} ${answer.clusters === 1 ? "result" : "distinct results"}`
            : ""}{" "}
          · {answer.elapsedMilliseconds} ms
        </span>
      </div>
      {answer.explanation ? <p className="explanation">{answer.explanation}</p> : null}
      <SqlBlock sql={answer.sql} />
      {plan.kind !== "none" ? <ResultChart rows={answer.rows} fields={answer.fields} plan={plan} /> : null}
      <ResultTable
        fields={answer.fields}
        rows={answer.rows}
        truncated={answer.truncated}
        {...(answer.truncatedBy === undefined ? {} : { truncatedBy: answer.truncatedBy })}
      />
    </section>
  );
}
