"use client";

import { useState } from "react";

type Feedback = "up" | "down" | null;

/** Thumbs up/down on a stored answer; a thumbs-up makes the question–SQL pair a verified example, undone by a thumbs-down. */
export function FeedbackButtons({ turnId, initial }: { readonly turnId: string; readonly initial: Feedback }) {
  const [feedback, setFeedback] = useState<Feedback>(initial);
  const [note, setNote] = useState<string | undefined>();

  async function send(next: Feedback) {
    const value = feedback === next ? null : next;
    const response = await fetch(`/api/turns/${encodeURIComponent(turnId)}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ feedback: value }),
    }).catch(() => undefined);
    if (!response?.ok) {
      setNote("The feedback could not be saved; try again.");
      return;
    }
    const body = (await response.json()) as { verifiedExampleId?: string; retracted?: boolean };
    setFeedback(value);
    setNote(
      body.verifiedExampleId
        ? "Saved as a verified example: similar questions will be shown this SQL."
        : body.retracted
          ? "Removed from the verified examples."
          : value === "down"
            ? "Thanks. To correct it: “Edit SQL” above, run it, then “Save as verified example”."
            : undefined,
    );
  }

  return (
    <fieldset className="feedback">
      <legend className="visually-hidden">Was this answer right?</legend>
      <button
        type="button"
        className="button button-secondary feedback-button"
        aria-pressed={feedback === "up"}
        onClick={() => void send("up")}
      >
        <span aria-hidden="true">👍</span> Right
      </button>
      <button
        type="button"
        className="button button-secondary feedback-button"
        aria-pressed={feedback === "down"}
        onClick={() => void send("down")}
      >
        <span aria-hidden="true">👎</span> Wrong
      </button>
      {note ? (
        <span className="feedback-note" role="status">
          {note}
        </span>
      ) : null}
    </fieldset>
  );
}
