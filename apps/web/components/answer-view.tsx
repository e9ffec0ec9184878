"use client";

import { useState } from "react";
import { planChart } from "../lib/chart-plan";
import type { AnswerData, AnswerField, ErrorData } from "../lib/chat-message";
import { showsAnswerKnowledge } from "../lib/knowledge-used-shown";
import { AnswerProvenance } from "./answer-provenance";
import { ErrorView } from "./error-view";
import { confirmInterpretation, InterpretationChoices } from "./interpretation-choices";
import { KnowledgeUsedList } from "./knowledge-used-list";
import { ResultChart } from "./result-chart";
import { ResultTable } from "./result-table";
import { SaveExampleForm } from "./save-example-form";
import { SqlBlock } from "./sql-block";
import { SqlEditor } from "./sql-editor";

/** The result on screen: the answer's, or a re-run's (edited SQL, more pages). */
interface ShownResult {
  readonly sql: string;
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly truncated: boolean;
  readonly truncatedBy?: "rows" | "bytes";
  /** Rows of the whole result, once a re-run or "load more" counted them. */
  readonly totalRows?: number;
  /** True when the rows are not nlq's answer: the user's edited SQL, or another reading picked (`reading`). */
  readonly edited: boolean;
  /** The number of the reading picked under the answer, when its candidate's SQL is on screen (not the user's). */
  readonly reading?: number;
}

interface RunResponse {
  readonly sql: string;
  readonly fields: AnswerField[];
  readonly rows: Array<Array<string | null>>;
  readonly truncated: boolean;
  readonly truncatedBy?: "rows" | "bytes";
  readonly totalRows: number;
}

async function runSql(sql: string, offset: number): Promise<RunResponse | ErrorData> {
  return post("/api/sql", { sql, offset });
}

/**
 * Runs reading `number` of a stored turn: its SQL is the server's stored one, and the audit trail keeps the pick
 * (POST /api/turns/<id>/pick).
 */
function runReading(turnId: string, number: number): Promise<RunResponse | ErrorData> {
  return post(`/api/turns/${encodeURIComponent(turnId)}/pick`, { number });
}

async function post(url: string, request: unknown): Promise<RunResponse | ErrorData> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const body = (await response.json()) as RunResponse | { error: ErrorData };
    return "error" in body ? body.error : body;
  } catch {
    return { code: "08006", name: "TransportError", message: "The server cannot be reached. Try again." };
  }
}

/**
 * An answered question: the plain-language sentence when there is one, provenance, the SQL (editable, re-run as the
 * same role), a chart when it fits, the rows.
 */
export function AnswerView({ answer, turnId }: { readonly answer: AnswerData; readonly turnId?: string | undefined }) {
  const [shown, setShown] = useState<ShownResult>({ ...answer, edited: false });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(answer.sql);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ErrorData | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const [savingExample, setSavingExample] = useState(false);
  // Edited SQL answers the user's own question, not the one asked: the chart then follows the columns alone (another
  // reading picked still answers the question asked).
  const chartQuestion = shown.edited && shown.reading === undefined ? undefined : answer.question;
  const plan = planChart(shown.fields, shown.rows, chartQuestion === undefined ? {} : { question: chartQuestion });
  // A chart, or at least the choice of columns to draw one from, whenever the rows have a measure and a label.
  const chartable =
    plan.kind !== "none" || ((plan.measureChoices?.length ?? 0) > 0 && (plan.labelChoices?.length ?? 0) > 0);

  async function rerun() {
    setBusy(true);
    setFailure(undefined);
    setSaved(undefined);
    setSavingExample(false);
    const result = await runSql(draft, 0);
    setBusy(false);
    if ("code" in result) {
      setFailure(result);
      return;
    }
    setShown({ ...result, edited: result.sql !== answer.sql });
    setEditing(false);
  }

  /**
   * Runs another reading of the question as the user's role (validated again, read-only). An answer choice: nothing is
   * saved; "Use this from now on" is what teaches.
   */
  async function pick(sql: string, number: number) {
    setFailure(undefined);
    setSaved(undefined);
    setSavingExample(false);
    if (sql === answer.sql) {
      setShown({ ...answer, edited: false });
      return;
    }
    setBusy(true);
    // A stored turn's reading runs from the server's copy and is audited; without one (no metadata store) as SQL.
    const result = turnId === undefined ? await runSql(sql, 0) : await runReading(turnId, number);
    setBusy(false);
    if ("code" in result) {
      setFailure(result);
      return;
    }
    setShown({ ...result, edited: true, reading: number });
  }

  /** "Use this from now on": confirms reading `number` of the stored turn (a verified example, a knowledge entry). */
  async function confirm(number: number) {
    if (turnId === undefined) return;
    setSaved(undefined);
    setBusy(true);
    const outcome = await confirmInterpretation(turnId, number);
    setBusy(false);
    setSaved(outcome.message);
  }

  async function loadMore() {
    setBusy(true);
    setFailure(undefined);
    const result = await runSql(shown.sql, shown.rows.length);
    setBusy(false);
    if ("code" in result) {
      setFailure(result);
      return;
    }
    setShown({
      ...shown,
      rows: [...shown.rows, ...result.rows],
      truncated: result.truncated,
      totalRows: result.totalRows,
    });
  }

  return (
    // A group, not a landmark: a thread holds many answers, and landmarks must be unique.
    // biome-ignore lint/a11y/useSemanticElements: an answer is not a set of form fields
    <section className="answer" role="group" aria-label="Result">
      {answer.summary && !shown.edited ? (
        // Model output: rendered as text (React escapes it), never as HTML; hidden once edited SQL replaces the rows.
        <p className="answer-sentence" data-testid="answer-sentence">
          {answer.summary.scripted ? (
            <span
              className="badge badge-scripted"
              title="A recorded sentence replayed for demos and tests, not written by a language model"
            >
              scripted replay
            </span>
          ) : null}
          <span>{answer.summary.sentence}</span>
        </p>
      ) : null}
      <AnswerProvenance
        answer={answer}
        edited={shown.edited}
        {...(shown.reading === undefined ? {} : { reading: shown.reading })}
      />
      {showsAnswerKnowledge(shown) ? <KnowledgeUsedList used={answer.knowledgeUsed} /> : null}
      {/* The model's reasoning is about its own SQL, not the user's edit. */}
      {answer.explanation && !shown.edited ? <p className="explanation">{answer.explanation}</p> : null}
      {editing ? (
        <div className="sql-edit">
          <SqlEditor
            initialSql={shown.sql}
            onChange={setDraft}
            label="Edit the SQL"
            onRun={() => void rerun()}
            autoFocus
          />
          <div className="answer-actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void rerun()}>
              {busy ? "Running…" : "Run read-only"}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <SqlBlock sql={shown.sql} />
      )}
      <InterpretationChoices
        answer={answer}
        shownSql={shown.sql}
        busy={busy}
        onPick={(sql, number) => void pick(sql, number)}
        onConfirm={turnId === undefined ? undefined : (number) => void confirm(number)}
      />
      {failure ? <ErrorView error={failure} /> : null}
      <div className="answer-actions">
        {editing ? null : (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setDraft(shown.sql);
              setEditing(true);
            }}
          >
            Edit SQL
          </button>
        )}
        <form method="post" action="/api/export" className="inline-form">
          <input type="hidden" name="sql" value={shown.sql} />
          {/* Names the file (nlq-<question>.csv); edited SQL answers the user's own question: nlq-result.csv. */}
          {chartQuestion === undefined ? null : <input type="hidden" name="question" value={chartQuestion} />}
          <button type="submit" className="button button-secondary">
            Download CSV
          </button>
        </form>
        {shown.edited && shown.reading === undefined && !savingExample ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setSaved(undefined);
              setSavingExample(true);
            }}
          >
            Save as verified example
          </button>
        ) : null}
        {shown.edited ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setShown({ ...answer, edited: false });
              setSavingExample(false);
              setSaved(undefined);
            }}
          >
            Back to nlq's answer
          </button>
        ) : null}
        {saved ? <span role="status">{saved}</span> : null}
      </div>
      {savingExample ? (
        <SaveExampleForm
          question={answer.question}
          sql={shown.sql}
          onDone={(message) => {
            setSavingExample(false);
            if (message) setSaved(message);
          }}
        />
      ) : null}
      {chartable ? (
        <ResultChart
          key={shown.sql}
          rows={shown.rows}
          fields={shown.fields}
          {...(chartQuestion === undefined ? {} : { question: chartQuestion })}
        />
      ) : null}
      <ResultTable
        fields={shown.fields}
        rows={shown.rows}
        truncated={shown.truncated}
        {...(shown.truncatedBy === undefined ? {} : { truncatedBy: shown.truncatedBy })}
        {...(shown.totalRows === undefined ? {} : { totalRows: shown.totalRows })}
      />
      {shown.truncated && shown.truncatedBy !== "bytes" ? (
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void loadMore()}>
          {busy ? "Loading…" : "Load more rows"}
        </button>
      ) : null}
    </section>
  );
}
