"use client";

import type { AnswerData } from "../lib/chat-message";

/**
 * The readings of an ambiguous question under its answer (issue 19 item 2): one button per reading with its support
 * and the computed line saying how it differs from #1 (text: it quotes model-written SQL and data values). Picking one
 * runs its SQL as the signed-in role (`onPick`) and stores nothing: a pick answers this question, it teaches nothing
 * (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 2). "Use this from now on" beside each reading
 * (`onConfirm`, offered when the turn is stored) is the one way to teach it (rule 3). The reading on screen is pressed.
 * Nothing when the candidates agreed.
 */
export function InterpretationChoices({
  answer,
  shownSql,
  busy,
  onPick,
  onConfirm,
}: {
  readonly answer: AnswerData;
  /** The SQL whose rows are on screen. */
  readonly shownSql: string;
  readonly busy: boolean;
  readonly onPick: (sql: string, number: number) => void;
  /** Confirms reading `number` ("use this from now on"); absent when the answer's turn is not stored. */
  readonly onConfirm?: ((number: number) => void) | undefined;
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
            <li key={interpretation.number} className="interpretation">
              <button
                type="button"
                className="button button-secondary interpretation-choice"
                aria-pressed={shown}
                disabled={busy}
                title={interpretation.sql}
                onClick={() => {
                  if (!shown) onPick(interpretation.sql, interpretation.number);
                }}
              >
                #{interpretation.number} · {interpretation.support} of {interpretation.outOf} candidates ·{" "}
                {interpretation.chosen ? "nlq's pick" : interpretation.difference}
              </button>
              {onConfirm ? (
                <button
                  type="button"
                  className="button button-secondary button-small interpretation-confirm"
                  aria-label={`Use this from now on: reading #${interpretation.number}`}
                  title="Remember this reading for later questions (a verified example and, for a phrase in doubt, a knowledge entry)"
                  disabled={busy}
                  onClick={() => onConfirm(interpretation.number)}
                >
                  Use this from now on
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** What "Use this from now on" answered: the sentence to show, or why it failed. */
export interface ConfirmOutcome {
  readonly ok: boolean;
  readonly message: string;
}

/** Confirms reading `number` of the stored turn `turnId` (POST /api/turns/<id>/confirm-reading). */
export async function confirmInterpretation(turnId: string, number: number): Promise<ConfirmOutcome> {
  try {
    const response = await fetch(`/api/turns/${encodeURIComponent(turnId)}/confirm-reading`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ number }),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { message?: string; error?: { message?: string } }
      | undefined;
    if (!response.ok) return { ok: false, message: body?.error?.message ?? "The reading was not remembered." };
    return { ok: true, message: capitalized(body?.message ?? "remembered") };
  } catch {
    return { ok: false, message: "The server cannot be reached. Try again." };
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
