"use client";

import type { AnswerData } from "../lib/chat-message";

/**
 * The readings of an ambiguous question under its answer (issue 19 item 2): one button per reading with its support
 * and the computed line saying how it differs from #1 (text: it quotes model-written SQL and data values). Picking one
 * runs its SQL as the signed-in role (`onPick`); the reading on screen is pressed. Nothing when the candidates agreed.
 */
export function InterpretationChoices({
  answer,
  shownSql,
  busy,
  onPick,
}: {
  readonly answer: AnswerData;
  /** The SQL whose rows are on screen. */
  readonly shownSql: string;
  readonly busy: boolean;
  readonly onPick: (sql: string) => void;
}) {
  const interpretations = answer.interpretations ?? [];
  if (interpretations.length < 2) return null;
  return (
    <fieldset className="interpretations" data-testid="interpretations">
      <legend>
        {answer.needsChoice ? "Which did you mean? " : ""}The candidates read the question {interpretations.length} ways
      </legend>
      {answer.choiceBasis ? <p className="interpretations-basis">{answer.choiceBasis}</p> : null}
      <ul className="interpretations-list">
        {interpretations.map((interpretation) => {
          const shown = interpretation.sql === shownSql;
          return (
            <li key={interpretation.number}>
              <button
                type="button"
                className="button button-secondary interpretation-choice"
                aria-pressed={shown}
                disabled={busy}
                title={interpretation.sql}
                onClick={() => {
                  if (!shown) onPick(interpretation.sql);
                }}
              >
                #{interpretation.number} · {interpretation.support} of {interpretation.outOf} candidates ·{" "}
                {interpretation.chosen ? "nlq's pick" : interpretation.difference}
              </button>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * Remembers a picked reading as the signed-in role's own verified example (never shared with other roles, whoever
 * picks): true when it was saved.
 */
export async function rememberPickedInterpretation(question: string, sql: string): Promise<boolean> {
  try {
    const response = await fetch("/api/verified-examples", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question, sql, picked: true }),
    });
    return response.ok;
  } catch {
    return false;
  }
}
